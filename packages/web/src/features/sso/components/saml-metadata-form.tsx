import { samlMetadataForm, type SamlMetadataForm as Values } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface SamlMetadataFormProps {
  /** The URL the metadata was fetched from before, to fetch again. */
  metadataUrl?: string | null;
  /** Why the caller may not configure SSO (spec 1 §6: the Account Owner only), or null. */
  denial: string | null;
  submitLabel: string;
  onSubmit: (values: Values) => Promise<unknown>;
}

/**
 * spec 1 §5 "SSO metadata": the identity provider's metadata URL or its XML, one of them ('must provide
 * either metadata URL or metadata XML'); on edit, Save requires one of them too. The XML is trimmed and
 * base64-encoded when sent (`samlMetadataPayload`); the URL is trimmed.
 */
export function SamlMetadataForm({ metadataUrl, denial, submitLabel, onSubmit }: SamlMetadataFormProps) {
  const form = useSchemaForm(samlMetadataForm, {
    defaultValues: { metadata_url: metadataUrl ?? '', metadata_xml: '' },
    blocked: denial !== null,
    onSubmit,
  });
  const xml = form.field('metadata_xml');
  const { error: xmlError, ...xmlField } = xml;
  return (
    <Form form={form} title="Identity provider" aria-label="Identity provider metadata">
      <TextField
        label="Metadata URL"
        type="url"
        autoComplete="off"
        placeholder="https://idp.example.com/app/metadata"
        hint="Berth fetches it over https. Or paste the metadata XML below."
        disabled={denial !== null}
        {...form.field('metadata_url')}
      />
      <FormField label="Metadata XML" error={xmlError}>
        {(control) => (
          <textarea
            className="input"
            rows={6}
            spellCheck={false}
            disabled={denial !== null}
            {...control}
            {...xmlField}
          />
        )}
      </FormField>
      <SubmitRow denial={denial}>{submitLabel}</SubmitRow>
    </Form>
  );
}
