import type { Config } from './config.ts';

const codeOf = (error: unknown): string =>
  String(
    (error as { code?: unknown } | null)?.code ??
      (error as { cause?: { code?: unknown } } | null)?.cause?.code ??
      '',
  );

/** Where DATABASE_URL points, without its credentials. */
function databaseHost(url: string): string {
  if (!URL.canParse(url)) return 'DATABASE_URL';
  const parsed = new URL(url);
  return `${parsed.hostname || parsed.searchParams.get('host') || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
}

/**
 * The one line an operator needs for a start that failed on the machine rather than in the code: an
 * unreachable or refusing database, a data directory Berth may not write. Null for anything else (a
 * bug, whose trace is worth having).
 */
export function startupProblem(
  error: unknown,
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
): string | null {
  const code = codeOf(error);
  if (['EACCES', 'EPERM', 'EROFS'].includes(code)) {
    const where = (error as { path?: string }).path ?? config.dataDir;
    return `Berth cannot write ${where}: ${code === 'EROFS' ? 'the file system is read-only' : 'permission denied'}. Set BERTH_DATA_DIR to a directory it can write.`;
  }
  if (!config.databaseUrl) return null;
  const where = databaseHost(config.databaseUrl);
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'nothing answers there',
    ENOTFOUND: 'the host name does not resolve',
    EAI_AGAIN: 'the host name does not resolve',
    ETIMEDOUT: 'it does not answer',
    EHOSTUNREACH: 'the host cannot be reached',
    '28P01': 'the password is wrong',
    '28000': 'the user may not log in',
    '3D000': 'the database does not exist',
  };
  const reason = reasons[code];
  return reason ? `Berth cannot use its database at ${where} (DATABASE_URL): ${reason}.` : null;
}

/**
 * The one line for a listen that failed on the machine (issue 35: a trace, after the resolver's near
 * minute for a HOST that does not resolve), or null for anything else.
 */
export function listenProblem(error: unknown, config: Pick<Config, 'host' | 'port'>): string | null {
  const where = `${config.host}:${config.port}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: `port ${config.port} is in use by another program. Set PORT to a free port`,
    EADDRNOTAVAIL: `HOST ${config.host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all`,
    EACCES: `port ${config.port} needs privileges this user lacks. Set PORT to 1024 or above`,
    ENOTFOUND: `HOST ${config.host} does not resolve. Set HOST to an address of this machine`,
    EAI_AGAIN: `HOST ${config.host} does not resolve. Set HOST to an address of this machine`,
  };
  const reason = reasons[codeOf(error)];
  return reason ? `Berth cannot listen on ${where}: ${reason}.` : null;
}
