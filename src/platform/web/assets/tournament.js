// A tournament's page: counts down to its start (or an arena's end) and, while the
// tournament can change, follows it through server-sent events: each event carries the
// page's changing part (state, standings, games), already escaped by the server.
(function () {
  'use strict';
  var root = document.getElementById('tournament');
  if (!root) { return; }
  // The server's clock, as far as this page can tell.
  var offset = (Number(root.dataset.now) || Date.now()) - Date.now();

  function pad(n) { return n < 10 ? '0' + n : String(n); }

  function tick() {
    var now = Date.now() + offset;
    var spans = document.querySelectorAll('[data-until]');
    for (var i = 0; i < spans.length; i++) {
      var left = Math.max(0, Math.round((Number(spans[i].dataset.until) - now) / 1000));
      var h = Math.floor(left / 3600);
      var m = Math.floor((left % 3600) / 60);
      var s = left % 60;
      spans[i].textContent = (h > 0 ? h + ':' + pad(m) : String(m)) + ':' + pad(s);
    }
  }
  tick();
  setInterval(tick, 1000);

  var address = root.dataset.live;
  if (!address || !window.EventSource) { return; }
  var updates = 0;
  var source = new EventSource(address);
  source.addEventListener('tournament', function (event) {
    var data = JSON.parse(event.data);
    document.getElementById('t-live').innerHTML = data.html;
    updates += 1;
    root.dataset.updates = String(updates);
    tick();
  });
  source.addEventListener('end', function () {
    source.close();
    var live = document.getElementById('live');
    if (live) { live.hidden = true; }
  });
})();
