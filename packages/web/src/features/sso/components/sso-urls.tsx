import { CopyableText } from '../../../components/ui/copyable-text.tsx';

/**
 * spec 1 §7: the URLs an identity provider is given, built from the auth host (the ACS and the SP
 * metadata, which is also the SP's entity ID and the audience), and the shortcut login link
 * `{app host}/sso/{handle or orgId}` members can bookmark.
 */
export function ssoUrls(authUrl: string, appUrl: string, organizationId: string, handle: string | null) {
  const base = `${authUrl}/organizations/${organizationId}/saml`;
  return {
    acs: `${base}/consume`,
    metadata: `${base}/metadata`,
    shortcut: `${appUrl}/sso/${handle ?? organizationId}`,
  };
}

export function SsoUrls({ urls }: { urls: ReturnType<typeof ssoUrls> }) {
  return (
    <section className="card card-body form-card" aria-labelledby="sso-urls-title">
      <h2 className="section-title" id="sso-urls-title">
        For your identity provider
      </h2>
      <p>Give your identity provider these addresses when you add Berth as a SAML application.</p>
      <h3 className="field-label">Single sign-on URL (Assertion Consumer Service)</h3>
      <CopyableText text={urls.acs} label="the single sign-on URL" />
      <h3 className="field-label">Audience (SP entity ID) and SP metadata</h3>
      <CopyableText text={urls.metadata} label="the SP entity ID" />
      <h3 className="field-label">Login link for your members</h3>
      <CopyableText text={urls.shortcut} label="the login link" />
    </section>
  );
}
