fn main() {
    paper_explorer::install_panic_notice();
    leptos::mount::mount_to_body(paper_explorer::App);
}
