import { useState } from 'react';
import { Button, ButtonLink, type ButtonSize, type ButtonVariant } from '../../../components/ui/button.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { InlinePanel } from '../../../components/ui/inline-panel.tsx';
import { ScopedButton, ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';
import { paths } from '../../../lib/paths.ts';
import { icons } from '../../shell/icons.tsx';
import { GuideSection, Source, Specimen } from './guide-section.tsx';
import { pretendRequest, SAMPLE_DENIAL } from './samples.ts';

const VARIANTS: readonly ButtonVariant[] = ['primary', 'secondary', 'ghost', 'danger'];
const SIZES: readonly ButtonSize[] = ['sm', 'md', 'lg'];

export function ButtonsSection() {
  return (
    <GuideSection
      id="buttons"
      source={
        <>
          <Source path="components/ui/button.tsx" /> (Button, and ButtonLink for navigation);{' '}
          <Source path="components/ui/permission-button.tsx" /> for an action a permission rule gates: it
          stays visible, disabled, with the rule as its tooltip.
        </>
      }
    >
      {VARIANTS.map((variant) => (
        <Specimen key={variant} label={`${variant}: default, hover, focus, disabled, loading`} wide>
          <div className="guide-row">
            <Button variant={variant}>Default</Button>
            <span data-preview="hover">
              <Button variant={variant}>Hover</Button>
            </span>
            <span data-preview="focus">
              <Button variant={variant}>Focus</Button>
            </span>
            <Button variant={variant} disabled>
              Disabled
            </Button>
            <Button variant={variant} loading>
              Loading
            </Button>
          </div>
        </Specimen>
      ))}
      <Specimen label="Sizes: sm, md, lg">
        <div className="guide-row">
          {SIZES.map((size) => (
            <Button key={size} size={size}>
              Size {size}
            </Button>
          ))}
        </div>
      </Specimen>
      <Specimen label="With an icon">
        <Button icon={icons.deploy}>Deploy</Button>
      </Specimen>
      <Specimen label="Block (full width)">
        <Button block variant="secondary">
          Block
        </Button>
      </Specimen>
      <Specimen label="ButtonLink: a link that looks like a button">
        <ButtonLink to={paths.styles} variant="secondary">
          Back to the style guide
        </ButtonLink>
      </Specimen>
      <Specimen label="ScopedButton: allowed, and denied (hover or focus it)">
        <div className="guide-row">
          <ScopedButton denial={null}>Allowed</ScopedButton>
          <ScopedButton denial={SAMPLE_DENIAL}>Denied</ScopedButton>
        </div>
      </Specimen>
      <Specimen label="ScopedButtonLink: allowed, and denied">
        <div className="guide-row">
          <ScopedButtonLink denial={null} to={paths.styles} variant="secondary">
            New App
          </ScopedButtonLink>
          <ScopedButtonLink denial={SAMPLE_DENIAL} to={paths.styles} variant="secondary">
            New App
          </ScopedButtonLink>
        </div>
      </Specimen>
    </GuideSection>
  );
}

export function TooltipsSection() {
  return (
    <GuideSection
      id="tooltips"
      source={
        <>
          <Source path="components/ui/tooltip.tsx" />: the tip describes its trigger and shows on hover and
          focus, 10 px away (spec 3 §9). Shown open here.
        </>
      }
    >
      <Specimen label="Top (the default), open" preview="open">
        <Tooltip content="A tooltip on top">
          {(trigger) => (
            <Button variant="secondary" {...trigger}>
              Top
            </Button>
          )}
        </Tooltip>
      </Specimen>
      <Specimen label="Bottom, open" preview="open">
        <Tooltip content="A tooltip below" placement="bottom">
          {(trigger) => (
            <Button variant="secondary" {...trigger}>
              Bottom
            </Button>
          )}
        </Tooltip>
      </Specimen>
      <Specimen label="Right, open (the menu's)" preview="open" wide>
        <Tooltip content="On the right" placement="right">
          {(trigger) => (
            <Button variant="secondary" {...trigger}>
              Right
            </Button>
          )}
        </Tooltip>
      </Specimen>
      <Specimen label="With plain words under a rule, open" preview="open" wide>
        <Tooltip content={SAMPLE_DENIAL} detail="A second, plainer line.">
          {(trigger) => (
            <Button variant="secondary" {...trigger}>
              Detail
            </Button>
          )}
        </Tooltip>
      </Specimen>
      <Specimen label="Closed until hovered or focused">
        <Tooltip content="Shown on hover and on focus">
          {(trigger) => (
            <Button variant="secondary" {...trigger}>
              Hover or focus me
            </Button>
          )}
        </Tooltip>
      </Specimen>
    </GuideSection>
  );
}

export function ConfirmationsSection() {
  return (
    <GuideSection
      id="confirmations"
      source={
        <>
          A destructive action is asked twice: <Source path="components/ui/confirm-button.tsx" /> in a row,{' '}
          <Source path="components/ui/typed-confirmation.tsx" /> when a name must be typed (spec 2 §5). Try
          them: they change nothing.
        </>
      }
    >
      <Specimen label="InlinePanel: opened, focus goes in; Escape closes it and focus comes back">
        <InlinePanelSample />
      </Specimen>
      <Specimen label="ConfirmButton: press it, then Confirm or Cancel">
        <ConfirmButton
          label="Remove the sample row"
          confirmLabel="Confirm remove"
          warning="It goes for good."
          denial={null}
          onConfirm={() => pretendRequest('Removed')}
        >
          Remove
        </ConfirmButton>
      </Specimen>
      <Specimen label="ConfirmButton, denied">
        <ConfirmButton
          label="Remove the sample row (denied)"
          confirmLabel="Confirm remove"
          denial={SAMPLE_DENIAL}
          onConfirm={() => pretendRequest('Removed')}
        >
          Remove
        </ConfirmButton>
      </Specimen>
      <Specimen label="TypedConfirmation: type the name to enable the button" wide>
        <TypedConfirmation
          title="Deprovision sample-app"
          actionLabel="Deprovision"
          description="Type the app's handle to confirm."
          expected="sample-app"
          fieldLabel="Type sample-app to confirm"
          denial={null}
          onConfirm={() => pretendRequest('Deprovisioned')}
        />
      </Specimen>
      <Specimen label="TypedConfirmation, blocked by another rule" wide>
        <TypedConfirmation
          title="Delete certificate"
          description="This certificate is still used by an endpoint."
          expected="sample-certificate"
          fieldLabel="Type sample-certificate to confirm"
          denial={null}
          blocked
          onConfirm={() => pretendRequest('Deleted')}
        />
      </Specimen>
      <Specimen label="TypedConfirmation as a form, denied" wide>
        <TypedConfirmation
          as="form"
          title="Delete Role"
          expected="Sample role"
          fieldLabel="Type Sample role to confirm"
          denial={SAMPLE_DENIAL}
          onConfirm={() => pretendRequest('Deleted')}
        />
      </Specimen>
    </GuideSection>
  );
}

/** An inline panel as Deploy opens one (issue 41), with a field to take the focus. */
function InlinePanelSample() {
  const [open, setOpen] = useState(false);
  return (
    <div className="stack">
      <Button variant="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
        Open a panel
      </Button>
      {open ? (
        <InlinePanel aria-label="Sample panel" onClose={() => setOpen(false)}>
          <label className="field-label" htmlFor="guide-panel-field">
            A field
          </label>
          <input id="guide-panel-field" className="input" />
        </InlinePanel>
      ) : null}
    </div>
  );
}
