export function serverEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export const SERVER_HEAP_MB: number;
