import type { Theme } from '@berth/core';
import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { BrandMark } from '../../brand.tsx';
import { icons } from '../../shell/icons.tsx';
import { GuideSection, Source, Specimen } from './guide-section.tsx';

/** The palette of styles/global.css, by use; each theme sets every one of them. */
export const COLOR_GROUPS: readonly { name: string; tokens: readonly string[] }[] = [
  {
    name: 'Surfaces and borders',
    tokens: [
      '--color-bg',
      '--color-surface',
      '--color-surface-raised',
      '--color-surface-muted',
      '--color-surface-hover',
      '--color-border',
      '--color-border-strong',
    ],
  },
  { name: 'Text', tokens: ['--color-text', '--color-text-muted', '--color-text-subtle'] },
  { name: 'Focus ring', tokens: ['--color-focus'] },
  {
    name: 'Primary',
    tokens: [
      '--color-primary',
      '--color-primary-hover',
      '--color-primary-soft',
      '--color-primary-text',
      '--color-on-primary',
    ],
  },
  {
    name: 'Danger',
    tokens: [
      '--color-danger',
      '--color-danger-hover',
      '--color-danger-soft',
      '--color-danger-text',
      '--color-on-danger',
    ],
  },
  { name: 'Warning', tokens: ['--color-warning', '--color-warning-soft', '--color-warning-text'] },
  { name: 'Success', tokens: ['--color-success', '--color-success-soft', '--color-success-text'] },
  { name: 'Info', tokens: ['--color-info', '--color-info-soft', '--color-info-text'] },
  {
    name: 'Sidebar',
    tokens: [
      '--color-sidebar-bg',
      '--color-sidebar-text',
      '--color-sidebar-text-strong',
      '--color-sidebar-muted',
      '--color-sidebar-hover',
      '--color-sidebar-active',
      '--color-sidebar-border',
    ],
  },
  { name: 'Tooltip', tokens: ['--color-tooltip-bg', '--color-tooltip-text'] },
];

/** Each token's value in the theme in force, read from the page (so it is the stylesheet's, not a copy). */
function useTokenValues(theme: Theme): ReadonlyMap<string, string> {
  const [values, setValues] = useState<ReadonlyMap<string, string>>(new Map());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new theme is the reason to read them again.
  useEffect(() => {
    // The theme's attribute is set by an effect too (the parent's, after this one): read on the next frame.
    const frame = requestAnimationFrame(() => {
      const style = getComputedStyle(document.documentElement);
      const tokens = COLOR_GROUPS.flatMap((group) => group.tokens);
      setValues(new Map(tokens.map((token) => [token, style.getPropertyValue(token).trim()])));
    });
    return () => cancelAnimationFrame(frame);
  }, [theme]);
  return values;
}

export function ColorsSection({ theme }: { theme: Theme }) {
  const values = useTokenValues(theme);
  return (
    <GuideSection
      id="colors"
      source={
        <>
          The palette is CSS variables in <Source path="styles/global.css" />: use a variable, never a colour
          of your own, so both themes follow.
        </>
      }
    >
      {COLOR_GROUPS.map((group) => (
        <Specimen key={group.name} label={group.name} wide>
          <ul className="swatches">
            {group.tokens.map((token) => (
              <li key={token} className="swatch">
                <span className="swatch-chip" style={{ background: `var(${token})` }} aria-hidden="true" />
                <code className="swatch-name">{token}</code>
                <span className="swatch-value">{values.get(token) ?? ''}</span>
              </li>
            ))}
          </ul>
        </Specimen>
      ))}
    </GuideSection>
  );
}

export function TypographySection() {
  return (
    <GuideSection
      id="typography"
      source={
        <>
          One sans-serif family (<code>--font-sans</code>) at 14 px, and a monospace one (
          <code>--font-mono</code>) for code. Page headings come from{' '}
          <Source path="components/ui/page-header.tsx" />.
        </>
      }
    >
      <Specimen label="PageHeader: title, description and actions" wide>
        <PageHeader
          title="Page title"
          description="The page's description, one line under its title."
          actions={<Button variant="secondary">An action</Button>}
        />
      </Specimen>
      <Specimen label="Section title (.section-title)">
        <p className="section-title">Section title</p>
      </Specimen>
      <Specimen label="Body text, muted and subtle">
        <div className="guide-column">
          <p>Body text: what a page says.</p>
          <p className="guide-muted">Muted text: what explains it.</p>
          <p className="guide-subtle">Subtle text: placeholders, asides.</p>
        </div>
      </Specimen>
      <Specimen label="Code and links">
        <div className="guide-column">
          <p>
            Inline <code>code</code> for handles, ids and commands.
          </p>
          <p>
            A <a href="#colors">link to the colors</a> and a{' '}
            <button type="button" className="link-button">
              link-styled button
            </button>
            .
          </p>
        </div>
      </Specimen>
      <Specimen label="Field label, hint and error">
        <div className="guide-column">
          <p className="field-label">Field label</p>
          <p className="field-hint">A hint under a field.</p>
          <p className="field-error">An error under a field.</p>
        </div>
      </Specimen>
    </GuideSection>
  );
}

export function IconsSection() {
  return (
    <GuideSection
      id="icons"
      source={
        <>
          Line icons drawn for the console, in <Source path="app/shell/icons.tsx" />: they take the text
          colour. The mark is <Source path="app/brand.tsx" />.
        </>
      }
    >
      <Specimen label="Icons, by name" wide>
        <ul className="icon-grid">
          {Object.entries(icons).map(([name, icon]) => (
            <li key={name} className="icon-tile">
              {icon}
              <code>{name}</code>
            </li>
          ))}
        </ul>
      </Specimen>
      <Specimen label="BrandMark with its name">
        <BrandMark />
      </Specimen>
      <Specimen label="BrandMark alone (collapsed menu)">
        <BrandMark withName={false} />
      </Specimen>
    </GuideSection>
  );
}

export function BoxesSection() {
  return (
    <GuideSection
      id="boxes"
      source={
        <>
          Cards and panels are classes of <Source path="components/ui/ui.css" /> and{' '}
          <Source path="components/ui/resource-page.css" />.
        </>
      }
    >
      <Specimen label="Card (.card.card-body)">
        <div className="card card-body">A card holds one thing: a form, a table, a panel.</div>
      </Specimen>
      <Specimen label="Form card (.form-card), at most 560 px wide">
        <div className="card card-body form-card">A form's card stays narrow enough to read.</div>
      </Specimen>
      <Specimen label="Request preview (.request-preview)">
        <pre className="request-preview">{'Subject: A request\n\nWhat would be sent, as it is.'}</pre>
      </Specimen>
      <Specimen label="Stacked cards (.section-stack)" wide>
        <div className="section-stack">
          <div className="card card-body">The first card</div>
          <div className="card card-body">The next one, 20 px below</div>
        </div>
      </Specimen>
    </GuideSection>
  );
}
