// Applies the persisted theme before the first paint so a dark console never flashes white. A file,
// not an inline script: the server's Content-Security-Policy allows scripts from this origin only.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.dataset.theme = 'dark';
} catch {}
