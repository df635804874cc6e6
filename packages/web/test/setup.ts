import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setRuntimeConfig } from '../src/lib/config.ts';
import { sessionStore } from '../src/lib/session-store.ts';
import { TEST_CONFIG } from './fixtures.ts';

// Routes are lazy chunks: on a busy machine the first import of one can take more than the default
// second, which is a load effect, not a failure. Waiting longer costs nothing when the page is quick;
// `npm test` runs this suite beside the server suites, which share the cores with it.
configure({ asyncUtilTimeout: 15_000 });

beforeEach(() => {
  setRuntimeConfig(TEST_CONFIG);
  // Tests start after boot, signed out; a test signs in or boots on its own.
  sessionStore.reset();
  window.innerWidth = 1280;
});

afterEach(() => {
  cleanup();
  sessionStore.reset();
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
  vi.unstubAllGlobals();
});
