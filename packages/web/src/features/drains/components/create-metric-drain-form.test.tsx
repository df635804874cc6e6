import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CreateMetricDrainForm } from './create-metric-drain-form.tsx';

function setup() {
  const onSubmit = vi.fn(async () => {});
  render(<CreateMetricDrainForm denial={null} influxDatabases={[]} onSubmit={onSubmit} />);
  return {
    onSubmit,
    user: userEvent.setup(),
    type: screen.getByRole('combobox', { name: 'Type' }),
    save: screen.getByRole('button', { name: 'Save Metric Drain' }),
  };
}

describe('CreateMetricDrainForm (spec 2 §5)', () => {
  it("asks each type for its fields with the spec's messages", async () => {
    const { user, type, save, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Handle' }), 'metrics');
    await user.click(save);
    expect(await screen.findByText('Must provide hostname')).toBeInTheDocument();
    expect(screen.getByText('Must provide username')).toBeInTheDocument();
    expect(screen.getByText('Must provide password')).toBeInTheDocument();
    expect(screen.getByText('Must provide a database name')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Hostname' }), 'https://influx.example.com');
    await user.click(save);
    expect(await screen.findByText('Do not include the protocol (e.g. http(s)://)')).toBeInTheDocument();

    await user.selectOptions(type, 'influxdb2');
    await user.click(save);
    expect(await screen.findByText('Must provide an organization name')).toBeInTheDocument();
    expect(screen.getByText('Must provide an API token')).toBeInTheDocument();
    expect(screen.getByText('Must provide a bucket name')).toBeInTheDocument();

    await user.selectOptions(type, 'datadog');
    await user.click(save);
    expect(await screen.findByText('Must provide a Datadog API key')).toBeInTheDocument();
    await user.selectOptions(type, 'influxdb_database');
    await user.click(save);
    expect(await screen.findByText('Must provide an InfluxDB database')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("sends Datadog's key and the chosen site's series URL", async () => {
    const { user, type, save, onSubmit } = setup();
    await user.type(screen.getByRole('textbox', { name: 'Handle' }), 'dd');
    await user.selectOptions(type, 'datadog');
    await user.type(screen.getByLabelText('API Key'), 'key-1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Site' }), 'EU1');
    await user.click(save);
    expect(onSubmit).toHaveBeenCalledWith({
      handle: 'dd',
      drain_type: 'datadog',
      drain_configuration: { api_key: 'key-1', series_url: 'https://api.datadoghq.eu/api/v1/series' },
    });
  });
});
