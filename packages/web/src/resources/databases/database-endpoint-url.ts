// contract §4.3 database port_mapping: pairs (port in the credential URL → public port), used to rewrite a
// database's credentials for one of its endpoints (spec 2 §2 endpoint tab Connection URL).

// scheme://, optional userinfo@ (up to the last @ of the authority), host (or [IPv6]), optional :port, rest.
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)(?::(\d*))?(.*)$/is;

/**
 * The credential URL as reached through an endpoint: its host replaced by the endpoint's, and its port by
 * the public port port_mapping pairs it with. A port without a pair is kept; a URL without a port takes
 * the first pair's public port. Text that is not a URL with an authority comes back unchanged.
 */
export function endpointConnectionUrl(
  connectionUrl: string,
  portMapping: readonly (readonly [number, number])[],
  host: string,
): string {
  const parts = URL_PARTS.exec(connectionUrl);
  if (!parts || !host) return connectionUrl;
  const [, scheme, userinfo = '', , port, rest = ''] = parts;
  const pair = port ? portMapping.find(([from]) => String(from) === port) : portMapping[0];
  const published = pair ? String(pair[1]) : port;
  return `${scheme}${userinfo}${host}${published ? `:${published}` : ''}${rest}`;
}
