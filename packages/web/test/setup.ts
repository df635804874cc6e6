import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { setRuntimeConfig } from '../src/lib/config.ts';
import { sessionStore } from '../src/lib/session-store.ts';
import { TEST_CONFIG } from './fixtures.ts';

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
