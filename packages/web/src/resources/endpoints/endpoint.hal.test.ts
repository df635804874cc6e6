import { describe, expect, it } from 'vitest';
import { endpointUrl } from './endpoint.hal.ts';

describe('endpointUrl', () => {
  const http = { type: 'http', virtualDomain: 'app-7.localhost', externalHost: 'edge', userDomain: '' };

  it('is HTTPS on the standard port where the endpoint answers there (simulated load balancers)', () => {
    expect(endpointUrl({ ...http, httpPort: '80', httpsPort: '443' })).toBe('https://app-7.localhost');
    expect(endpointUrl(http)).toBe('https://app-7.localhost');
  });

  it("is plain HTTP with the edge's port where the endpoint has no TLS listener (docker runtime)", () => {
    expect(endpointUrl({ ...http, httpPort: '8080', httpsPort: null })).toBe('http://app-7.localhost:8080');
    expect(endpointUrl({ ...http, httpPort: '80', httpsPort: null })).toBe('http://app-7.localhost');
  });

  it("names the edge's HTTPS port when it is not 443, and the user's domain first", () => {
    expect(
      endpointUrl({ ...http, userDomain: 'shop.example.com', httpPort: '8080', httpsPort: '8443' }),
    ).toBe('https://shop.example.com:8443');
  });

  it('is the bare host for TCP and TLS endpoints', () => {
    expect(endpointUrl({ ...http, type: 'tcp', httpPort: null, httpsPort: null })).toBe('app-7.localhost');
  });
});
