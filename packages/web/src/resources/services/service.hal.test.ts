import { describe, expect, it } from 'vitest';
import { deploymentStrategy } from './service.hal.ts';

describe('deployment strategy label (spec 2 §4)', () => {
  const plain = { forceZeroDowntime: false, naiveHealthCheck: false };

  it('with endpoints: Zero-Downtime for http, http_proxy_protocol or grpc, else Minimal-Downtime', () => {
    expect(deploymentStrategy(plain, ['tcp', 'http'])).toBe('Zero-Downtime');
    expect(deploymentStrategy(plain, ['grpc'])).toBe('Zero-Downtime');
    expect(deploymentStrategy(plain, ['tls', 'tcp'])).toBe('Minimal-Downtime');
  });

  it('without endpoints: Zero-Overlap, or Zero-Downtime when forced, plus Simple Healthcheck', () => {
    expect(deploymentStrategy(plain)).toBe('Zero-Overlap');
    expect(deploymentStrategy({ ...plain, forceZeroDowntime: true })).toBe('Zero-Downtime');
    expect(deploymentStrategy({ forceZeroDowntime: true, naiveHealthCheck: true })).toBe(
      'Zero-Downtime, Simple Healthcheck',
    );
    expect(deploymentStrategy({ ...plain, naiveHealthCheck: true })).toBe('Zero-Overlap, Simple Healthcheck');
  });
});
