import { SCIM_UNIQUE_IDENTIFIER, SCIM_VERSION, scimConfigurationMessages } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { ScimConfiguration } from '../api/scim-configurations.ts';

export interface ScimTokenPanelProps {
  configuration: ScimConfiguration;
  /** A token just generated: the one time it is on screen; null otherwise. */
  generated: string | null;
  denial: string | null;
  onGenerate: () => Promise<unknown>;
  /** Forgets the generated token (it is never shown again). */
  onDone: () => void;
}

/**
 * What the identity provider is given: the SCIM base URL and the bearer token. The token is shown once
 * (spec 1 §3), with a Copy button; a new one replaces the old at once, so regenerating asks first.
 */
export function ScimTokenPanel({
  configuration,
  generated,
  denial,
  onGenerate,
  onDone,
}: ScimTokenPanelProps) {
  return (
    <section className="card card-body form-card section-stack" aria-labelledby="scim-connection">
      <h2 className="section-title" id="scim-connection">
        Connect your identity provider
      </h2>
      <DetailList
        label="SCIM connection"
        items={[
          {
            label: 'SCIM base URL',
            value: <CopyableText text={configuration.scimBaseUrl} label="the SCIM base URL" />,
          },
          { label: 'SCIM version', value: SCIM_VERSION },
          { label: 'Unique identifier', value: `${SCIM_UNIQUE_IDENTIFIER} (userName)` },
          { label: 'Authentication', value: 'HTTP header: Authorization: Bearer <token>' },
          {
            label: 'Token',
            value: configuration.tokenId
              ? `Generated ${formatDateTime(configuration.tokenCreatedAt)}`
              : 'None yet: generate one',
          },
        ]}
      />
      {generated !== null ? (
        <section className="section-stack" aria-label="Your new SCIM token">
          <Banner variant="warning">{scimConfigurationMessages.tokenShownOnce}</Banner>
          <CopyableText text={generated} label="the SCIM token" secret />
          <div className="form-actions">
            <Button variant="secondary" onClick={onDone}>
              Done
            </Button>
          </div>
        </section>
      ) : configuration.tokenId ? (
        <div className="form-actions">
          <ConfirmButton
            label="Generate new token"
            confirmLabel="Confirm generate new token"
            warning={scimConfigurationMessages.regenerateWarning}
            denial={denial}
            size="md"
            onConfirm={onGenerate}
          >
            Generate new token
          </ConfirmButton>
        </div>
      ) : (
        <div className="form-actions">
          <ScopedButton denial={denial} onClick={() => void onGenerate().catch(() => undefined)}>
            Generate token
          </ScopedButton>
        </div>
      )}
    </section>
  );
}
