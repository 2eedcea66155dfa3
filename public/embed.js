// <paper-explorer>: the paper explorer in a wiki page, without writing any
// script. Load this file once (an external script, so a strict
// Content-Security-Policy allows it), then place as many elements as wanted:
//
//   <script src="https://example.org/iclr/embed.js" defer></script>
//   <paper-explorer src="https://example.org/iclr/" query="diffusion"
//                   facets="topic:Agents;year:2026"></paper-explorer>
//
// Attributes: `src` (the explorer's address; defaults to this script's
// folder), `list` (a list of your own to show instead of the explorer's:
// a file the frame fetches and compiles, any format the explorer reads,
// resolved against this page, e.g. `list="papers.bib"`), `query`, `facets`
// (`key:value` pairs joined by `;`), `sort`, `open` (a paper id),
// `max-height` (the frame's ceiling in CSS pixels: by default this page's
// window height, so a long list scrolls inside its frame; `none` for the
// content's whole height, for a short list). Changing
// one changes the view (a new `list` opens that list in the frame). The element keeps
// `query`, `facets` and `sort` in step with what the reader does, and
// dispatches `state` and `opened` events whose `detail` is the explorer's
// message (see docs/guide.md, "Host API"). `element.set({list, query,
// facets, sort, open})` sends a set message directly (`list` an absolute
// URL).
//
// Each element talks only to its own frame: messages are matched to the
// frame's window, and sent to the frame's origin only.
(function () {
  'use strict';
  if (window.customElements === undefined || customElements.get('paper-explorer')) {
    return;
  }
  var VERSION = 2;
  var here = document.currentScript && document.currentScript.src;
  var defaultSrc = here ? new URL('./', here).href : '';
  var elements = [];

  function parseFacets(text) {
    var facets = {};
    (text || '').split(';').forEach(function (pair) {
      var at = pair.indexOf(':');
      if (at <= 0) return;
      var key = pair.slice(0, at).trim();
      var value = pair.slice(at + 1).trim();
      if (!value) return;
      (facets[key] = facets[key] || []).push(value);
    });
    return facets;
  }

  function formatFacets(facets) {
    var pairs = [];
    Object.keys(facets || {}).sort().forEach(function (key) {
      facets[key].forEach(function (value) { pairs.push(key + ':' + value); });
    });
    return pairs.join(';');
  }

  // One listener for every element: a message goes to the element whose
  // frame sent it.
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data.type !== 'string' || data.type.indexOf('paper-explorer:') !== 0) {
      return;
    }
    for (var i = 0; i < elements.length; i++) {
      var el = elements[i];
      if (el._frame && el._frame.contentWindow === event.source && event.origin === el._origin) {
        el._receive(data);
        return;
      }
    }
  });

  class PaperExplorer extends HTMLElement {
    static get observedAttributes() { return ['list', 'query', 'facets', 'sort', 'open', 'max-height']; }

    connectedCallback() {
      if (this._frame) return;
      var src = new URL(this.getAttribute('src') || defaultSrc, document.baseURI);
      // The first view comes in the address: no flash of the whole list.
      src.searchParams.set('embed', '1');
      var list = this.getAttribute('list');
      if (list) src.searchParams.set('source', new URL(list, document.baseURI).href);
      var query = this.getAttribute('query');
      if (query) src.searchParams.set('q', query);
      var facets = parseFacets(this.getAttribute('facets'));
      Object.keys(facets).forEach(function (key) {
        facets[key].forEach(function (value) { src.searchParams.append(key, value); });
      });
      var sort = this.getAttribute('sort');
      if (sort) src.searchParams.set('sort', sort);
      var open = this.getAttribute('open');
      if (open) src.hash = open;
      this._origin = src.origin;
      this._reflecting = false;
      var frame = document.createElement('iframe');
      frame.src = src.href;
      frame.title = this.getAttribute('title') || 'Paper explorer';
      frame.loading = 'lazy';
      frame.style.width = '100%';
      frame.style.height = this.getAttribute('height') || '80vh';
      frame.style.border = '0';
      frame.style.display = 'block';
      this._frame = frame;
      this.appendChild(frame);
      elements.push(this);
    }

    disconnectedCallback() {
      var at = elements.indexOf(this);
      if (at >= 0) elements.splice(at, 1);
      if (this._frame) this._frame.remove();
      this._frame = null;
    }

    attributeChangedCallback(name, old, value) {
      if (!this._frame || this._reflecting || old === value) return;
      if (name === 'max-height') return this._size();
      var message = {};
      if (name === 'list') {
        // Another list: the frame opens it as its address would.
        if (!value) return;
        message.list = new URL(value, document.baseURI).href;
      }
      if (name === 'query') message.query = value || '';
      if (name === 'facets') message.facets = parseFacets(value);
      if (name === 'sort') message.sort = value || 'relevance';
      if (name === 'open') {
        if (!value) return;
        message.open = value;
      }
      this.set(message);
    }

    // Sends `{list?, query?, facets?, sort?, open?}` to the explorer.
    set(change) {
      if (!this._frame || !this._frame.contentWindow) return;
      var message = Object.assign({}, change, { type: 'paper-explorer:set', version: VERSION });
      this._frame.contentWindow.postMessage(message, this._origin);
    }

    // The frame as tall as the explorer asks, up to the ceiling
    // (`max-height`, by default this window's height).
    _size() {
      var asked = this._height;
      if (!asked || !this._frame) return;
      var max = this.getAttribute('max-height');
      var height = max === 'none' && typeof asked.contentHeight === 'number'
        ? asked.contentHeight
        : Math.min(asked.height, parseFloat(max) > 0 ? parseFloat(max) : window.innerHeight);
      this._frame.style.height = Math.max(0, Math.ceil(height)) + 'px';
    }

    _receive(data) {
      if (data.type === 'paper-explorer:height' && typeof data.height === 'number') {
        this._height = data;
        this._size();
        return;
      }
      if (data.type === 'paper-explorer:state') {
        this._reflecting = true;
        try {
          this.setAttribute('query', data.query || '');
          this.setAttribute('facets', formatFacets(data.facets));
          this.setAttribute('sort', data.sort || 'relevance');
        } finally {
          this._reflecting = false;
        }
        this.dispatchEvent(new CustomEvent('state', { detail: data }));
      } else if (data.type === 'paper-explorer:opened') {
        this.dispatchEvent(new CustomEvent('opened', { detail: data }));
      }
    }
  }

  // The default ceiling follows this window's height.
  window.addEventListener('resize', function () {
    elements.forEach(function (el) { el._size(); });
  });

  customElements.define('paper-explorer', PaperExplorer);
})();
