// Before the app starts, the page may show the first screen the build
// wrote into it (hidden until this script says so): the list's first
// papers, in English, as the app's default view shows them. It is shown
// only where the app would show the same, so that nothing shown is taken
// back: not for a link with a query, a fragment or a shared list, a page
// framed by another (embed layout), a reader who chose or whose browser
// prefers Chinese, or one with a reading list (its stars). Loaded async:
// the page's parsing never waits for it. The theme the reader chose is
// applied now rather than when the app starts.
(function () {
  var root = document.documentElement;
  var show = !location.search && !location.hash && window.top === window.self;
  function stored(key) {
    var raw = localStorage.getItem(key);
    if (raw === null) return null;
    try { return JSON.parse(raw); } catch (e) { return raw; }
  }
  try {
    var theme = stored('paper-explorer-theme');
    if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme);
    var lang = stored('paper-explorer-lang');
    if (lang === null) {
      var langs = navigator.languages || [navigator.language || ''];
      for (var i = 0; i < langs.length; i++) {
        var primary = String(langs[i]).split(/[-_]/)[0].toLowerCase();
        if (primary === 'en' || primary === 'zh') { lang = primary; break; }
      }
    }
    if (lang === 'zh') show = false;
    if (localStorage.getItem('paper-explorer-reading-list') !== null) show = false;
  } catch (e) {
    show = false;
  }
  root.setAttribute('data-first-screen', show ? 'shown' : 'hidden');
})();
