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

// A start that fails in the browser's WebAssembly engine is retried once,
// by reloading the page: a trap before the app is up (about one start in
// 1,500 in WebKitGTK, never in Chromium or Firefox; docs/testing.md,
// "The WebKit start defect") loses nothing of the reader's, who would otherwise meet the
// crash notice. The app marks itself started (`data-app-started`) and
// forgets the retry once it is up; a second failure in a row leaves the
// app's notice and its reload link. What the failed start said is kept
// for the retried page (`window.__restartedAfter`: its message and stack),
// where the browser tests print it: the defect's cause is not yet known.
(function () {
  var KEY = 'paper-explorer-restarted';
  var CAUSE = 'paper-explorer-restart-cause';
  var root = document.documentElement;
  if (typeof WebAssembly === 'undefined') return;
  try {
    var cause = sessionStorage.getItem(CAUSE);
    if (cause !== null) {
      sessionStorage.removeItem(CAUSE);
      window.__restartedAfter = cause;
    }
  } catch (e) {}
  function failed(event) {
    var thrown = event.error || event.reason;
    if (!(thrown instanceof WebAssembly.RuntimeError)) return;
    if (root.hasAttribute('data-app-started') || root.hasAttribute('data-restarting')) return;
    try {
      if (sessionStorage.getItem(KEY) !== null) return;
      sessionStorage.setItem(KEY, String(Date.now()));
    } catch (e) {
      return;
    }
    // Only for diagnosis: a storage too full for it must not stop the retry.
    try {
      sessionStorage.setItem(CAUSE, thrown.message + '\n' + (thrown.stack || ''));
    } catch (e) {}
    root.setAttribute('data-restarting', '');
    console.warn('The app failed to start (' + thrown.message + '): reloading once.');
    location.reload();
  }
  addEventListener('error', failed);
  addEventListener('unhandledrejection', failed);
})();
