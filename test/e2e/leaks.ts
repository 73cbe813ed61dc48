/**
 * Counts what the page holds on to, installed before any script runs: listeners on the page's own objects (window,
 * document, <html>, <body>, the visual viewport, media queries), timers and frames not yet run or cleared,
 * observers observing, the document's stylesheets, elements and the global.
 */
export const LEAK_COUNTER = `(() => {
  const listeners = new Map();
  const timers = new Set();
  const frames = new Set();
  const observing = new Set();
  const counted = { listeners: false, timers: false, observers: false };
  window.counted = counted;
  const pageLevel = (target) =>
    target === window || target === document || target === document.documentElement ||
    target === document.body || target === window.visualViewport || target instanceof MediaQueryList;
  const key = (target, type, fn, options) =>
    [target, type, fn, typeof options === 'boolean' ? options : Boolean(options && options.capture)];
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, options) {
    if (pageLevel(this) && fn) {
      counted.listeners = true;
      const k = key(this, type, fn, options);
      const once = typeof options === 'object' && options && options.once;
      const id = k.map(String).join('|') + listeners.size;
      listeners.set(id, { k, label: (this === window ? 'window' : this.nodeName || this.constructor.name) + ' ' + type });
      if (once) add.call(this, type, () => listeners.delete(id), { once: true });
    }
    return add.call(this, type, fn, options);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, options) {
    const [t, ty, f, c] = key(this, type, fn, options);
    for (const [id, entry] of listeners)
      if (entry.k[0] === t && entry.k[1] === ty && entry.k[2] === f && entry.k[3] === c) listeners.delete(id);
    return remove.call(this, type, fn, options);
  };
  const setT = window.setTimeout, clearT = window.clearTimeout, setI = window.setInterval, clearI = window.clearInterval;
  window.setTimeout = function (fn, ms, ...rest) {
    counted.timers = true;
    const id = setT.call(window, (...a) => { timers.delete(id); return typeof fn === 'function' ? fn(...a) : undefined; }, ms, ...rest);
    timers.add(id);
    return id;
  };
  window.clearTimeout = (id) => { timers.delete(id); clearT.call(window, id); };
  window.setInterval = function (fn, ms, ...rest) { counted.timers = true; const id = setI.call(window, fn, ms, ...rest); timers.add(id); return id; };
  window.clearInterval = (id) => { timers.delete(id); clearI.call(window, id); };
  const raf = window.requestAnimationFrame, caf = window.cancelAnimationFrame;
  window.requestAnimationFrame = (fn) => { const id = raf.call(window, (t) => { frames.delete(id); fn(t); }); frames.add(id); return id; };
  window.cancelAnimationFrame = (id) => { frames.delete(id); caf.call(window, id); };
  for (const name of ['MutationObserver', 'ResizeObserver', 'IntersectionObserver']) {
    const proto = window[name].prototype;
    const observe = proto.observe, disconnect = proto.disconnect;
    proto.observe = function (...args) { counted.observers = true; observing.add(this); return observe.apply(this, args); };
    proto.disconnect = function () { observing.delete(this); return disconnect.call(this); };
  }
  window.leaks = () => ({
    elements: document.querySelectorAll('askbox-widget, askbox-chat').length,
    listeners: [...listeners.values()].map((entry) => entry.label),
    timers: timers.size,
    frames: frames.size,
    observers: observing.size,
    documentSheets: document.adoptedStyleSheets.length + document.querySelectorAll('style:not([nonce])').length,
    global: 'Askbox' in window,
  });
})();`;
