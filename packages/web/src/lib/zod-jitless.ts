// zod compiles object schemas with `new Function` unless told not to, and probes for it with a caught
// `new Function('')`, which the server's Content-Security-Policy (script-src 'self', no 'unsafe-eval')
// refuses and reports as a violation all the same. Imported first by main.tsx: zod keeps its settings
// on this global whichever side creates it, so the form chunk (which carries zod) stays lazy.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
