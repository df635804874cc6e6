import {
  type AutoscalingMode,
  fractionToPercent,
  isSizingPercentField,
  percentToFraction,
  SIZING_LIMITS,
  SIZING_POLICY_DEFAULTS,
  type SizingPolicyBody,
  type SizingPolicyField,
  type SizingPolicyFields,
  sizingMessageInPercent,
  sizingPolicyProblems,
  sizingPolicyWarning,
} from '@berth/core';
import { Form, resolverOf, SubmitRow, useRulesForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { SizingPolicy } from '../../../resources/sizing/sizing.hal.ts';

type Mode = 'disabled' | AutoscalingMode;
type NumberField = Exclude<
  SizingPolicyField,
  'scaling_enabled' | 'autoscaling' | 'default_policy' | 'use_horizontal_scale'
>;
export type AutoscalingValues = { mode: Mode } & Record<NumberField, string>;

interface FieldSpec {
  name: NumberField;
  label: string;
  min: number;
  max: number;
  step: number;
  /** Left blank it stays blank (no limit, or the spec's "is required"), instead of the default. */
  nullable?: boolean;
}

const L = SIZING_LIMITS;
// spec 2 §5: the form's fields and ranges, by the mode that uses them; the advanced section holds the rest.
const HORIZONTAL: FieldSpec[] = [
  {
    name: 'min_containers',
    label: 'Minimum containers',
    min: 1,
    max: L.containersMax,
    step: 1,
    nullable: true,
  },
  {
    name: 'max_containers',
    label: 'Maximum containers',
    min: 1,
    max: L.containersMax,
    step: 1,
    nullable: true,
  },
  // Issue 41: thresholds are typed in percent (the contract's 0.9 is 90 here); the range is (0, 1]
  // with two decimals (spec 2 §5), so 1 % to 100 %.
  {
    name: 'min_cpu_threshold',
    label: 'Scale down CPU threshold (%)',
    min: 1,
    max: 100,
    step: 1,
    nullable: true,
  },
  {
    name: 'max_cpu_threshold',
    label: 'Scale up CPU threshold (%)',
    min: 1,
    max: 100,
    step: 1,
    nullable: true,
  },
];
const VERTICAL: FieldSpec[] = [
  { name: 'mem_scale_down_threshold', label: 'Memory scale down threshold (%)', min: 0, max: 100, step: 1 },
  { name: 'mem_scale_up_threshold', label: 'Memory scale up threshold (%)', min: 0, max: 100, step: 1 },
  { name: 'minimum_memory', label: 'Minimum memory (MB)', min: L.memoryMinMb, max: L.memoryMaxMb, step: 1 },
  {
    name: 'maximum_memory',
    label: 'Maximum memory (MB)',
    min: L.memoryMinMb,
    max: L.memoryMaxMb,
    step: 1,
    nullable: true,
  },
  {
    name: 'mem_cpu_ratio_r_threshold',
    label: 'Memory-to-CPU ratio for R',
    min: 0,
    max: L.ratioRMax,
    step: 0.1,
  },
  {
    name: 'mem_cpu_ratio_c_threshold',
    label: 'Memory-to-CPU ratio for C',
    min: 0,
    max: L.ratioCMax,
    step: 0.1,
  },
];
const STEPS: FieldSpec[] = [
  { name: 'scale_up_step', label: 'Scale up step', min: 1, max: L.stepMax, step: 1 },
  { name: 'scale_down_step', label: 'Scale down step', min: 1, max: L.stepMax, step: 1 },
];
const ADVANCED: FieldSpec[] = [
  {
    name: 'metric_lookback_seconds',
    label: 'Metric lookback (seconds)',
    min: L.lookbackAbove + 1,
    max: L.lookbackMax,
    step: 1,
  },
  { name: 'percentile', label: 'Percentile', min: L.percentileMin, max: L.percentileMax, step: 0.1 },
  {
    name: 'post_scale_up_cooldown_seconds',
    label: 'Cooldown after scale up (s)',
    min: 0,
    max: L.cooldownMax,
    step: 1,
  },
  {
    name: 'post_scale_down_cooldown_seconds',
    label: 'Cooldown after scale down (s)',
    min: 0,
    max: L.cooldownMax,
    step: 1,
  },
  {
    name: 'post_release_cooldown_seconds',
    label: 'Cooldown after release (s)',
    min: 0,
    max: L.cooldownMax,
    step: 1,
  },
];
const ALL = [...HORIZONTAL, ...VERTICAL, ...STEPS, ...ADVANCED];
// spec 2 §4: choosing vertical puts these back to their defaults.
const RESET_ON_VERTICAL: NumberField[] = [
  'min_containers',
  'max_containers',
  'min_cpu_threshold',
  'max_cpu_threshold',
  'scale_up_step',
  'scale_down_step',
];

const text = (value: number | null) => (value === null ? '' : String(value));

/** What a field shows for a stored value: thresholds in percent, the rest as they are. */
function shown(name: NumberField, value: number | null): string {
  return value !== null && isSizingPercentField(name) ? text(fractionToPercent(value)) : text(value);
}

/** What is stored for a typed number: a threshold's percent as the contract's fraction. */
function stored(name: NumberField, value: number): number {
  return isSizingPercentField(name) ? percentToFraction(value) : value;
}

function valuesOf(policy: SizingPolicy | null): AutoscalingValues {
  const fields = policy?.fields ?? SIZING_POLICY_DEFAULTS;
  const values = {
    mode: policy?.fields.scaling_enabled ? fields.autoscaling : 'disabled',
  } as AutoscalingValues;
  for (const spec of ALL) values[spec.name] = shown(spec.name, fields[spec.name]);
  return values;
}

/** The policy the values describe: blank reads as the default, or as null where the field may be null. */
function fieldsOf(values: AutoscalingValues, base: SizingPolicyFields): SizingPolicyFields {
  const fields = { ...base } as Record<string, unknown>;
  for (const spec of ALL) {
    const raw = values[spec.name].trim();
    fields[spec.name] =
      raw === ''
        ? spec.nullable
          ? null
          : SIZING_POLICY_DEFAULTS[spec.name]
        : stored(spec.name, Number(raw));
  }
  fields.scaling_enabled = values.mode !== 'disabled';
  if (values.mode !== 'disabled') fields.autoscaling = values.mode;
  return fields as SizingPolicyFields;
}

/** spec 2 §5: on blur a number is clamped into its range; a blank one falls back to its default. */
function clampOnBlur(spec: Pick<FieldSpec, 'name' | 'min' | 'max' | 'nullable'>, raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') return spec.nullable ? '' : shown(spec.name, SIZING_POLICY_DEFAULTS[spec.name]);
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return shown(spec.name, SIZING_POLICY_DEFAULTS[spec.name]);
  return String(Math.min(spec.max, Math.max(spec.min, value)));
}

export interface AutoscalingFormProps {
  policy: SizingPolicy | null;
  /** The modes the stack offers (spec 2 §6). */
  allowed: { horizontal: boolean; vertical: boolean };
  /** Why the caller may not change the policy (service_sizing_policy.update), or null. */
  denial: string | null;
  onSave: (body: SizingPolicyBody) => Promise<unknown>;
}

/**
 * spec 2 §4 and §5: the autoscaling form of a service's Scale tab: Disabled, Horizontal or Vertical (as
 * the stack allows), each mode's fields with the spec's messages beside them, and the advanced section
 * (open for horizontal). Saving sends every field, so what is saved is what is shown.
 */
export function AutoscalingForm({ policy, allowed, denial, onSave }: AutoscalingFormProps) {
  const initial = valuesOf(policy);
  const base = policy?.fields ?? SIZING_POLICY_DEFAULTS;
  const problemsOf = (values: AutoscalingValues) => {
    if (values.mode === 'disabled') return {};
    const problems: Partial<Record<NumberField, string>> = {};
    for (const problem of sizingPolicyProblems(fieldsOf(values, base))) {
      const name = problem.field as NumberField;
      problems[name] ??= sizingMessageInPercent(problem.message);
    }
    for (const spec of ALL) {
      if (values[spec.name].trim() !== '' && !Number.isFinite(Number(values[spec.name]))) {
        problems[spec.name] = `${spec.label} must be a number`;
      }
    }
    return problems;
  };
  const changed = (values: AutoscalingValues) =>
    (Object.keys(initial) as (keyof AutoscalingValues)[]).some((key) => values[key] !== initial[key]);
  const form = useRulesForm(resolverOf<AutoscalingValues>(problemsOf), {
    defaultValues: initial,
    blocked: (values) => denial !== null || !changed(values),
    onSubmit: (values) => {
      const { default_policy: _, ...fields } = fieldsOf(values, base);
      return onSave(fields);
    },
  });
  const values = form.watch();
  const mode = values.mode;
  const warning = mode === 'horizontal' ? sizingPolicyWarning(fieldsOf(values, base)) : null;
  const live = problemsOf(values);

  const modes = [
    { value: 'disabled', label: 'Disabled' },
    ...(allowed.horizontal || initial.mode === 'horizontal'
      ? [{ value: 'horizontal', label: 'Horizontal' }]
      : []),
    ...(allowed.vertical || initial.mode === 'vertical' ? [{ value: 'vertical', label: 'Vertical' }] : []),
  ];

  const input = (spec: FieldSpec) => {
    const binding = form.register(spec.name);
    return (
      <TextField
        key={spec.name}
        label={spec.label}
        type="number"
        inputMode="decimal"
        min={spec.min}
        max={spec.max}
        step={spec.step}
        error={live[spec.name]}
        hint={spec.name === 'min_containers' && warning ? warning : undefined}
        {...binding}
        onBlur={(event) => {
          form.setValue(spec.name, clampOnBlur(spec, event.target.value), { shouldDirty: true });
          void binding.onBlur(event);
        }}
      />
    );
  };

  return (
    <Form form={form} className="card card-body form form-card" aria-label="Autoscaling">
      <h2 className="section-title">Autoscaling</h2>
      <SelectField
        label="Autoscaling"
        options={modes}
        {...form.register('mode', {
          onChange: (event: { target: { value: string } }) => {
            if (event.target.value !== 'vertical') return;
            for (const name of RESET_ON_VERTICAL)
              form.setValue(name, shown(name, SIZING_POLICY_DEFAULTS[name]));
          },
        })}
      />
      {mode === 'horizontal' ? (
        <div className="autoscaling-fields">{[...HORIZONTAL, ...STEPS].map(input)}</div>
      ) : null}
      {mode === 'vertical' ? <div className="autoscaling-fields">{VERTICAL.map(input)}</div> : null}
      {mode !== 'disabled' ? (
        <details className="autoscaling-advanced" open={mode === 'horizontal'}>
          <summary>Advanced settings</summary>
          <div className="autoscaling-fields">{ADVANCED.map(input)}</div>
        </details>
      ) : null}
      <SubmitRow denial={denial} disabled={!changed(values) || Object.keys(live).length > 0}>
        Save Autoscaling
      </SubmitRow>
    </Form>
  );
}
