import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { describe, expect, it } from 'vitest';
import { endpointRefusal, isPrivateAddress, publicOnlyConnector } from '../../src/webhooks/network-rule.js';

/**
 * The webhook network rule (src/webhooks/network-rule.ts): every address form classified by ipaddr.js, literal
 * addresses refused at registration and before connecting, and the peer a connection reached checked before anything is
 * sent.
 */

describe('the network rule', () => {
  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['100.64.0.1', true],
    ['169.254.169.254', true],
    ['192.0.2.10', true],
    ['198.18.0.1', true],
    ['203.0.113.7', true],
    ['::ffff:7f00:1', true],
    ['::ffff:127.0.0.1', true],
    ['::7f00:1', true],
    ['64:ff9b::7f00:1', true],
    ['2002:7f00:1::', true],
    ['2001::1', true],
    ['fec0::1', true],
    ['fe80::1', true],
    ['fc00::1', true],
    ['2001:db8::1', true],
    ['::', true],
    ['not an address', true],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it('refuses literal addresses in every form when an endpoint is registered', () => {
    for (const url of [
      'https://[::ffff:7f00:1]/h',
      'https://[64:ff9b::a00:1]/h',
      'https://[2002:a00:1::]/h',
      'https://0x7f.1/h',
    ]) {
      expect(endpointRefusal(url, false), url).toMatch(/private, loopback or link-local address|names this machine/);
    }
    expect(endpointRefusal('https://hooks.example.com/h', false)).toBeNull();
  });

  it('checks the peer a connection reached, literal addresses included (they never pass a DNS lookup)', async () => {
    const requests: string[] = [];
    const server: Server = createServer((req, res) => {
      requests.push(req.url ?? '');
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ connect: publicOnlyConnector(2000) });
    try {
      for (const url of [`http://127.0.0.1:${port}/hooks`, `http://[::ffff:127.0.0.1]:${port}/hooks`]) {
        const caught = await undiciFetch(url, { dispatcher: agent, method: 'POST' }).then(
          () => null,
          (error: unknown) => error as { cause?: { code?: string } },
        );
        expect(caught?.cause?.code, url).toBe('EPRIVATE');
      }
      expect(requests).toEqual([]);
    } finally {
      await agent.close();
      server.close();
    }
  });
});
