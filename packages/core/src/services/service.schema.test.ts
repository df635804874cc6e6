import { describe, expect, it } from 'vitest';
import { serviceSettingsSchema } from './service.schema.ts';

describe('service settings (spec 2 §5, §9)', () => {
  it.each([
    [{ stop_timeout: 0 }, { stop_timeout: 0 }],
    [{ stop_timeout: 900 }, { stop_timeout: 900 }],
    [{ stop_timeout: '30' }, { stop_timeout: 30 }],
    [{ stop_timeout: '' }, { stop_timeout: null }],
    [{ stop_timeout: null }, { stop_timeout: null }],
    [
      { force_zero_downtime: true, naive_health_check: false },
      { force_zero_downtime: true, naive_health_check: false },
    ],
    [{}, {}],
  ])('accepts %j', (body, parsed) => {
    expect(serviceSettingsSchema.parse(body)).toEqual(parsed);
  });

  it.each([
    [{ stop_timeout: -1 }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ stop_timeout: 901 }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ stop_timeout: 1.5 }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ stop_timeout: 'soon' }, 'Stop timeout must be between 0 and 900 seconds'],
    [{ force_zero_downtime: 'yes' }, 'Force zero downtime must be true or false'],
    [{ naive_health_check: 1 }, 'Simple healthcheck must be true or false'],
  ])('refuses %j with "%s"', (body, message) => {
    expect(serviceSettingsSchema.safeParse(body).error?.issues[0]?.message).toBe(message);
  });
});
