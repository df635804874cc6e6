// The system Chromium (apt's /usr/bin/chromium, or CHROMIUM_PATH) as the Playwright suite and
// `npm run bench:web` launch it: Playwright never downloads browsers here, and no background traffic.
export const systemChromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
  ],
};
