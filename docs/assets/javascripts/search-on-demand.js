// Search machinery on demand. As a page starts, Material's bundle starts its search worker (12 KB gzipped,
// lunr inside) and requests search/search_index.json (about 240 KB gzipped, and the worker's Chinese lunr
// files after it), before anyone searches. Loaded before the bundle, this script holds both back until the
// reader starts to search: focuses the search box (a click or tap on it or on the search icon, or
// Material's keys f, s and /), or opens a page whose URL asks for a search (?q=) or for highlighted
// search terms (?h=, the links of search results). Then the index request goes out as Material made it,
// the real worker starts, and the query typed so far runs once the worker has built its index.
(function () {
  var INDEX = /\/search\/search_index\.json$/;
  var WORKER = /\/workers\/search\.[^/]*\.js$/;
  var wanted = false;
  var held = [];                 // what waits for the reader: index requests to send, the worker to start

  function want() {
    if (wanted) return;
    wanted = true;
    held.splice(0).forEach(function (go) { go(); });
  }

  function path(url) {
    return new URL(String(url), document.baseURI).pathname;
  }

  // The index request: Material sends it with XMLHttpRequest; its send waits.
  var deferred = new WeakSet();
  var xhrOpen = XMLHttpRequest.prototype.open;
  var xhrSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    if (INDEX.test(path(url))) deferred.add(this);
    return xhrOpen.apply(this, arguments);
  };
  XMLHttpRequest.prototype.send = function () {
    if (wanted || !deferred.has(this)) return xhrSend.apply(this, arguments);
    var xhr = this, args = arguments;
    held.push(function () { xhrSend.apply(xhr, args); });
  };

  // The search worker: Material gets a stand-in that listens and posts like a Worker. The real one starts
  // when the reader starts to search (or on the first message, which Material sends only with the index).
  var RealWorker = window.Worker;
  window.Worker = function (url, options) {
    if (!WORKER.test(path(url))) return new RealWorker(url, options);
    var stand = new EventTarget(), real = null, posts = [];
    function start() {
      if (real) return;
      real = new RealWorker(url, options);
      real.onmessage = function (e) { stand.dispatchEvent(new MessageEvent("message", {data: e.data})); };
      real.onerror = function () { stand.dispatchEvent(new Event("error")); };
      posts.splice(0).forEach(function (m) { real.postMessage(m); });
    }
    stand.postMessage = function (m) {
      if (!real) { posts.push(m); start(); } else real.postMessage(m);
    };
    stand.terminate = function () { if (real) real.terminate(); };
    if (wanted) start(); else held.push(start);
    return stand;
  };
  window.Worker.prototype = RealWorker.prototype;   // other workers still pass `instanceof Worker`

  document.addEventListener("focusin", function (e) {
    if (e.target.closest && e.target.closest(".md-search")) want();
  });
  document.addEventListener("change", function (e) {   // the search toggle (the icon on a phone)
    if (e.target.id === "__search" && e.target.checked) want();
  });
  var params = new URLSearchParams(location.search);
  if (params.has("q") || params.has("h")) want();
})();
