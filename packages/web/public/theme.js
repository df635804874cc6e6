// Applies the persisted theme before the first paint so a dark console never flashes white. The server
// writes this file into the page and allows it by its hash in the Content-Security-Policy; the file
// itself serves the Vite dev server's page.
try {
  if (localStorage.getItem('theme') === 'dark') document.documentElement.dataset.theme = 'dark';
} catch {}
