// The bench picks a child's port, releases it, and the child binds it later: another process may
// take it in between (the 2026-11-26 quiet run lost the embedded flow so). `onFreePorts` starts
// the child again on new ports then; checked here with a real listener taking the first port.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { describe, it } from 'node:test';
import { onFreePorts, portWasTaken } from '../../bench/lib/processes.ts';

async function listen(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await Promise.race([
    once(server, 'listening'),
    once(server, 'error').then(([error]) => Promise.reject(error)),
  ]);
  return server;
}

describe('the bench children ports', () => {
  it('starts again on a new port when the one picked was taken before the child bound it', async () => {
    const thief: Server[] = [];
    const tried: number[] = [];
    const server = await onFreePorts(1, async ([port]) => {
      if (port === undefined) throw new Error('no port given');
      tried.push(port);
      // Someone else binds the port first, as an outbound connection or another child may.
      if (thief.length === 0) thief.push(await listen(port));
      return listen(port);
    });
    try {
      assert.equal(tried.length, 2);
      assert.notEqual(tried[0], tried[1]);
      const address = server.address();
      assert.ok(address !== null && typeof address === 'object');
      assert.equal(address.port, tried[1]);
    } finally {
      server.close();
      for (const s of thief) s.close();
    }
  });

  it('gives distinct ports to one child and throws any other failure at once', async () => {
    let calls = 0;
    await assert.rejects(
      onFreePorts(3, async (ports) => {
        calls += 1;
        assert.equal(new Set(ports).size, 3);
        throw new Error('migration failed');
      }),
      /migration failed/,
    );
    assert.equal(calls, 1);
  });

  it('reads the service refusal and the raw EADDRINUSE as a port taken', () => {
    assert.ok(
      portWasTaken(
        new Error(
          'paygate (embedded) exited (2) before it was ready:\npaygate: configuration error: PORT="40429" is not valid (the port is already in use by another process)',
        ),
      ),
    );
    assert.ok(portWasTaken(new Error('listen EADDRINUSE: address already in use 127.0.0.1:4000')));
    assert.equal(portWasTaken(new Error('connect ECONNREFUSED')), false);
  });
});
