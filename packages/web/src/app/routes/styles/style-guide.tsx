import { THEMES, type Theme } from '@berth/core';
import { Fragment, type ReactNode } from 'react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useTheme } from '../../../lib/theme.ts';
import { ButtonsSection, ConfirmationsSection, TooltipsSection } from './actions.tsx';
import { DetailBoxesSection, NavigationSection, QrSection, SecretsSection, TablesSection } from './data.tsx';
import { BannersSection, LogsSection, PillsSection, StatesSection, ToastsSection } from './feedback.tsx';
import { FormsSection } from './forms.tsx';
import { BoxesSection, ColorsSection, IconsSection, TypographySection } from './foundations.tsx';
import { GUIDE_SECTIONS, type GuideSectionId } from './guide-section.tsx';
import './style-guide.css';

const THEME_LABELS: Record<Theme, string> = { light: 'Light', dark: 'Dark' };

/** The console's own theme (the sidebar's toggle sets the same one), chosen from the page. */
function ThemeChoice({ theme, onChange }: { theme: Theme; onChange: (theme: Theme) => void }) {
  return (
    <fieldset className="guide-theme">
      <legend className="field-label">Theme</legend>
      {THEMES.map((option) => (
        <label key={option} className="guide-theme-option">
          <input
            type="radio"
            name="guide-theme"
            value={option}
            checked={theme === option}
            onChange={() => onChange(option)}
          />
          {THEME_LABELS[option]}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * spec 3 §2 /styles: every piece of the UI kit in its states, in the console's frame, so a newcomer sees
 * what exists before writing another. Each piece is the real component (the guide's test fails when one is
 * missing); the samples it is given change nothing.
 */
function StyleGuideRoute() {
  const { theme, setTheme } = useTheme();
  const sections: Record<GuideSectionId, ReactNode> = {
    colors: <ColorsSection theme={theme} />,
    typography: <TypographySection />,
    buttons: <ButtonsSection />,
    banners: <BannersSection />,
    tables: <TablesSection />,
    forms: <FormsSection />,
    logs: <LogsSection />,
    pills: <PillsSection />,
    navigation: <NavigationSection />,
    icons: <IconsSection />,
    tooltips: <TooltipsSection />,
    'detail-boxes': <DetailBoxesSection />,
    secrets: <SecretsSection />,
    boxes: <BoxesSection />,
    qr: <QrSection />,
    states: <StatesSection />,
    confirmations: <ConfirmationsSection />,
    toasts: <ToastsSection />,
  };
  const ids = Object.keys(GUIDE_SECTIONS) as GuideSectionId[];
  return (
    <div className="style-guide">
      <PageHeader
        title="Style guide"
        description="Every piece of the console's UI kit in its states. Use these before writing another."
        actions={<ThemeChoice theme={theme} onChange={setTheme} />}
      />
      <nav className="guide-index" aria-label="Style guide sections">
        <ul>
          {ids.map((id) => (
            <li key={id}>
              <a href={`#${id}`}>{GUIDE_SECTIONS[id]}</a>
            </li>
          ))}
        </ul>
      </nav>
      {ids.map((id) => (
        <Fragment key={id}>{sections[id]}</Fragment>
      ))}
    </div>
  );
}

export { StyleGuideRoute as Component };
