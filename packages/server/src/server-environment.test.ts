import { describe, expect, it } from 'vitest';
import { SERVER_HEAP_MB, serverEnvironment } from '../../../scripts/server-process.mjs';

// How `npm start` runs the server (scripts/server-process.mjs): its memory settings, and the operator's
// own winning over them.
describe('the server process environment', () => {
  it("caps V8's heap and returns malloc's large blocks, keeping the caller's variables", () => {
    const env = serverEnvironment({ PORT: '4000' });
    expect(env).toMatchObject({
      PORT: '4000',
      MALLOC_MMAP_THRESHOLD_: '32768',
      NODE_OPTIONS: `--max-old-space-size=${SERVER_HEAP_MB}`,
    });
  });

  it("adds the cap to the operator's NODE_OPTIONS, and leaves their own cap and threshold alone", () => {
    expect(serverEnvironment({ NODE_OPTIONS: '--enable-source-maps' }).NODE_OPTIONS).toBe(
      `--enable-source-maps --max-old-space-size=${SERVER_HEAP_MB}`,
    );
    expect(serverEnvironment({ NODE_OPTIONS: '--max-old-space-size=2048' }).NODE_OPTIONS).toBe(
      '--max-old-space-size=2048',
    );
    expect(serverEnvironment({ NODE_OPTIONS: '--max_old_space_size=2048' }).NODE_OPTIONS).toBe(
      '--max_old_space_size=2048',
    );
    expect(serverEnvironment({ MALLOC_MMAP_THRESHOLD_: '1024' }).MALLOC_MMAP_THRESHOLD_).toBe('1024');
  });
});
