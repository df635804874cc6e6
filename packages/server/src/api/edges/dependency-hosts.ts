/** A resource a configuration can depend on. */
export interface DependencyTarget {
  type: 'app' | 'database';
  id: number;
}

/** Letters, digits, dots and hyphens: what a host name is made of. */
function isHostCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 46 || // .
    code === 45 // -
  );
}

function withoutTrailingDots(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 46) end--;
  return text.slice(0, end);
}

/**
 * The host-like words of a value, lower-cased, in one pass: a URL's host (`postgresql://u:p@HOST:5432/db`),
 * a bare host name, or one in a list. Whole words only, so `db-1.internal` is not found in
 * `db-12.internal` nor in `mydb-1.internal`; a trailing dot (an absolute name, a full stop) is dropped.
 */
export function hostWords(value: string): Set<string> {
  const words = new Set<string>();
  let start = -1;
  for (let index = 0; index <= value.length; index++) {
    const inWord = index < value.length && isHostCharacter(value.charCodeAt(index));
    if (inWord && start === -1) start = index;
    if (!inWord && start !== -1) {
      const word = withoutTrailingDots(value.slice(start, index));
      if (word !== '') words.add(word.toLowerCase());
      start = -1;
    }
  }
  return words;
}

/** The host of a connection URL, lower-cased, or null when it has none a configuration could name. */
export function connectionHost(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase();
    // An IPv6 literal (`[::1]`) is not a host word; such a database is found by no configuration.
    return host !== '' && hostWords(host).has(host) ? host : null;
  } catch {
    return null;
  }
}

const keyOf = (target: DependencyTarget) => `${target.type}-${target.id}`;

/**
 * Which resource each host names. A host that names two resources names neither: the docker runtime's
 * endpoints all answer on the machine's one public host, and a shared load balancer's host serves many
 * apps, so a configuration holding it says nothing about which one it uses.
 */
export function hostIndex(
  entries: Iterable<{ host: string | null | undefined; target: DependencyTarget }>,
): Map<string, DependencyTarget> {
  const named = new Map<string, DependencyTarget | null>();
  for (const { host, target } of entries) {
    const name = host ? withoutTrailingDots(host.toLowerCase()) : '';
    if (!name) continue;
    const known = named.get(name);
    if (known === undefined) named.set(name, target);
    else if (known !== null && keyOf(known) !== keyOf(target)) named.set(name, null);
  }
  const index = new Map<string, DependencyTarget>();
  for (const [host, target] of named) if (target) index.set(host, target);
  return index;
}

/** The resources the values name by one of their hosts, each once, in the order first named. */
export function dependenciesOf(
  values: Iterable<string | null>,
  hosts: ReadonlyMap<string, DependencyTarget>,
): DependencyTarget[] {
  const found = new Map<string, DependencyTarget>();
  for (const value of values) {
    if (!value) continue;
    for (const word of hostWords(value)) {
      const target = hosts.get(word);
      if (target && !found.has(keyOf(target))) found.set(keyOf(target), target);
    }
  }
  return [...found.values()];
}
