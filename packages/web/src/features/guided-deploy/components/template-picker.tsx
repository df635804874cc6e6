import { CUSTOM_CODE, STARTER_TEMPLATES, starterTemplate, templateDeploySummary } from '@berth/core';
import { CopyableText } from '../../../components/ui/copyable-text.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import './guided-deploy.css';

export interface TemplatePickerProps {
  /** A template's id, or CUSTOM_CODE. */
  value: string;
  onChange: (value: string) => void;
  /** The stack's runtime: what deploying a template does depends on it. */
  runtime: string;
}

/**
 * spec 3 "The git remote page offers custom code or a starter template" (spec 3 §9's templates): the
 * choice, what the template is, and what deploying it does on this stack's runtime. Where pushed code is
 * built, the commands that make the template's code.
 */
export function TemplatePicker({ value, onChange, runtime }: TemplatePickerProps) {
  const template = starterTemplate(value);
  return (
    <section className="section-stack" aria-labelledby="template-title">
      <h2 className="section-title" id="template-title">
        Deploy Custom Code or Starter Template
      </h2>
      <SelectField
        label="Code"
        value={template ? template.id : CUSTOM_CODE}
        onChange={(event) => onChange(event.target.value)}
        options={[
          { value: CUSTOM_CODE, label: 'Custom Code' },
          ...STARTER_TEMPLATES.map((item) => ({ value: item.id, label: `${item.label} Template` })),
        ]}
        hint="Launch your own app with Custom Code, or learn how Berth works with a Starter Template."
      />
      {template ? (
        <section className="section-stack" aria-label={`${template.label} Template`}>
          <p>{template.description}</p>
          <p className="muted">{templateDeploySummary(template, runtime)}</p>
          {runtime === 'sim' ? null : (
            <>
              <h3 className="section-title">Make the template’s code</h3>
              <CopyableText text={template.create.join('\n')} label="the template’s commands" />
              <p className="muted">{template.needs}</p>
            </>
          )}
        </section>
      ) : null}
    </section>
  );
}
