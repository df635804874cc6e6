import { sshKeyMessages } from '@berth/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { collection, errorBody, HOST, tokenHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';

const KEY_LINE =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJHyC86QCd51EwoBnMxsC4YrSM4IyshIqe4TF9ukN/ct me@example.com';

function sshKeyHal(id: string, name: string) {
  return {
    _type: 'ssh_key',
    id,
    name,
    ssh_public_key: KEY_LINE,
    md5_fingerprint: 'bd:35:14:cf:90:9e:61:df:3c:d3:20:d4:46:75:9a:5b',
    sha256_fingerprint: `SHA256:${name}-fingerprint`,
    public_key_fingerprint: 'bd:35:14:cf:90:9e:61:df:3c:d3:20:d4:46:75:9a:5b',
    created_at: '2026-01-02T03:04:05.000Z',
    updated_at: '2026-01-02T03:04:05.000Z',
    _links: { self: { href: `${HOST}/auth/ssh_keys/${id}` }, user: { href: `${HOST}/auth/users/user-1` } },
  };
}

function elevate() {
  sessionStore.setElevatedToken(
    fromTokenResource(tokenHal({ id: 'tok-e', scope: 'elevated', lifetime: 1800 })),
  );
}

describe('/settings/ssh', () => {
  it('asks for reauthentication first', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/ssh_keys': () => json(200, collection('ssh_keys', [])),
    });
    const { router } = renderApp('/settings/ssh');
    await waitFor(() => expect(router.state.location.pathname).toBe('/elevate'));
    expect(router.state.location.search).toContain('redirect=%2Fsettings%2Fssh');
  });

  it('lists the keys, adds one with the elevated token and shows the server’s message for a bad one', async () => {
    signIn();
    elevate();
    const keys = [sshKeyHal('k1', 'Laptop')];
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/ssh_keys': () => json(200, collection('ssh_keys', keys)),
      'POST /auth/users/user-1/ssh_keys': [
        () => json(422, errorBody(422, 'unprocessable_entity', sshKeyMessages.rsaTooShort(1024))),
        () => {
          keys.push(sshKeyHal('k2', 'Desktop'));
          return json(201, sshKeyHal('k2', 'Desktop'));
        },
      ],
    });
    renderApp('/settings/ssh');
    const user = userEvent.setup();
    expect(await screen.findByText('Laptop', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('SHA256:Laptop-fingerprint')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Name'), 'Desktop');
    await user.type(screen.getByLabelText('Public key'), 'ssh-rsa AAAAshort');
    await user.click(screen.getByRole('button', { name: 'Add SSH key' }));
    expect(await screen.findByText(sshKeyMessages.rsaTooShort(1024))).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Public key'));
    await user.type(screen.getByLabelText('Public key'), KEY_LINE);
    await user.click(screen.getByRole('button', { name: 'Add SSH key' }));
    expect(await screen.findByText('Desktop')).toBeInTheDocument();
    const posts = server.callsTo('POST', '/auth/users/user-1/ssh_keys');
    expect(posts[1]?.body).toEqual({ name: 'Desktop', ssh_public_key: KEY_LINE });
    expect(posts[1]?.headers.Authorization).toBe(
      `Bearer ${sessionStore.getState().elevatedToken?.accessToken}`,
    );
  });

  it('checks the form before sending', async () => {
    signIn();
    elevate();
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/ssh_keys': () => json(200, collection('ssh_keys', [])),
    });
    renderApp('/settings/ssh');
    const user = userEvent.setup();
    expect(await screen.findByText('No SSH keys yet', {}, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add SSH key' }));
    expect(await screen.findByText('Name must not be empty')).toBeInTheDocument();
    expect(screen.getByText(sshKeyMessages.keyRequired)).toBeInTheDocument();
    expect(server.callsTo('POST', '/auth/users/user-1/ssh_keys')).toHaveLength(0);
  });

  it('deletes a key after confirmation', async () => {
    signIn();
    elevate();
    let keys = [sshKeyHal('k1', 'Laptop')];
    const server = mockServer({
      ...consoleRoutes(),
      'GET /auth/users/user-1/ssh_keys': () => json(200, collection('ssh_keys', keys)),
      'DELETE /auth/ssh_keys/k1': () => {
        keys = [];
        return noContent();
      },
    });
    renderApp('/settings/ssh');
    const user = userEvent.setup();
    const row = (await screen.findByText('Laptop', {}, { timeout: 5000 })).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Delete Laptop' }));
    expect(server.callsTo('DELETE', '/auth/ssh_keys/k1')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Confirm delete Laptop' }));
    expect(await screen.findByText('No SSH keys yet')).toBeInTheDocument();
    expect(server.callsTo('DELETE', '/auth/ssh_keys/k1')).toHaveLength(1);
  });
});
