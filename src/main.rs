fn main() {
    paper_explorer::start();
}
