import { describe, expect, it } from 'vitest';
import { certificateMessages, createCertificateSchema, shortFingerprint } from './certificate.schema.ts';

describe('certificate upload body (spec 2 §5, contract §5.9)', () => {
  it.each([
    [{ private_key: 'key' }, 'A certificate is required for custom HTTPS'],
    [{ certificate_body: '  ', private_key: 'key' }, 'A certificate is required for custom HTTPS'],
    [{ certificate_body: 'cert' }, 'A private key is required for custom HTTPS'],
    [{ certificate_body: 'cert', private_key: '' }, 'A private key is required for custom HTTPS'],
  ])('refuses %j with "%s"', (body, message) => {
    expect(createCertificateSchema.safeParse(body).error?.issues[0]?.message).toBe(message);
  });

  it('trims the PEM text', () => {
    expect(createCertificateSchema.parse({ certificate_body: ' a\n', private_key: 'b\n' })).toEqual({
      certificate_body: 'a',
      private_key: 'b',
    });
  });

  it('keeps the spec text of a refused delete', () => {
    expect(certificateMessages.inUse).toBe(
      'This certificate is still in use and cannot be deleted. Remove all endpoints before trying again.',
    );
    expect(shortFingerprint('abcdef0123')).toBe('abcdef0');
  });
});
