import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebServer } from './server.js';
import { parseWebConfig, type ClientAuthType } from './web-config.js';

// A throwaway CA, a server certificate for 127.0.0.1 and a client certificate, made with the
// machine's openssl (node:crypto cannot write X.509). A missing openssl fails in CI.
const haveOpenssl = ((): boolean => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!haveOpenssl && process.env.CI === 'true') throw new Error('openssl is needed for the TLS tests');

let dir = '';
const file = (name: string): string => path.join(dir, name);
const read = (name: string): string => fs.readFileSync(file(name), 'utf8');

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

beforeAll(() => {
  if (!haveOpenssl) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infersight-tls-'));
  const key = (name: string) => openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`);
  key('ca');
  for (const [name, san] of [['server', 'IP:127.0.0.1'], ['client', 'DNS:prometheus.example']]) {
    openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    fs.writeFileSync(file(`${name}.ext`), `subjectAltName=${san}\n`);
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.crt`);
  }
  key('stranger');
});

afterAll(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
});

async function serve(yaml: string): Promise<{ port: number; close: () => Promise<void> }> {
  const cfg = await parseWebConfig(yaml, dir);
  const server = createWebServer(cfg.tls, {}, (_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

function get(port: number, client?: 'client' | 'stranger'): Promise<string> {
  return new Promise((resolve) => {
    const req = https.get({ host: '127.0.0.1', port, path: '/', ca: read('ca.crt'), ...(client === undefined ? {} : { cert: read(`${client}.crt`), key: read(`${client}.key`) }) }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve(`${res.statusCode ?? 0} ${body}`));
    });
    req.on('error', () => resolve('refused'));
  });
}

const tlsYaml = (auth: ClientAuthType, extra = ''): string =>
  `tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: ${auth}\n${auth === 'NoClientCert' || auth === 'RequestClientCert' || auth === 'RequireAnyClientCert' ? '' : '  client_ca_file: ca.crt\n'}${extra}`;

describe.skipIf(!haveOpenssl)('HTTPS from tls_server_config', () => {
  it.each<[string, string, 'client' | 'stranger' | undefined, string]>([
    ['server certificate only', tlsYaml('NoClientCert'), undefined, '200 ok'],
    ['client certs required and verified: none given', tlsYaml('RequireAndVerifyClientCert'), undefined, 'refused'],
    ['client certs required and verified: one from the CA', tlsYaml('RequireAndVerifyClientCert'), 'client', '200 ok'],
    ['client certs required and verified: a stranger', tlsYaml('RequireAndVerifyClientCert'), 'stranger', 'refused'],
    ['verified if given: none', tlsYaml('VerifyClientCertIfGiven'), undefined, '200 ok'],
    ['verified if given: a stranger', tlsYaml('VerifyClientCertIfGiven'), 'stranger', 'refused'],
    ['any client cert: none', tlsYaml('RequireAnyClientCert'), undefined, 'refused'],
    ['any client cert: a stranger', tlsYaml('RequireAnyClientCert'), 'stranger', '200 ok'],
    ['allowed SANs: listed', tlsYaml('RequireAndVerifyClientCert', '  client_allowed_sans: [prometheus.example]\n'), 'client', '200 ok'],
    ['allowed SANs: not listed', tlsYaml('RequireAndVerifyClientCert', '  client_allowed_sans: [other.example]\n'), 'client', 'refused'],
  ])('%s', async (_name, yaml, client, want) => {
    const s = await serve(yaml);
    try {
      expect(await get(s.port, client)).toBe(want);
    } finally {
      await s.close();
    }
  });

  it('refuses TLS 1.2 clients when min_version is TLS13', async () => {
    const s = await serve(`${tlsYaml('NoClientCert')}  min_version: TLS13\n`);
    try {
      const got = await new Promise<string>((resolve) => {
        const req = https.get({ host: '127.0.0.1', port: s.port, ca: read('ca.crt'), maxVersion: 'TLSv1.2' }, (res) => resolve(String(res.statusCode)));
        req.on('error', () => resolve('refused'));
      });
      expect(got).toBe('refused');
    } finally {
      await s.close();
    }
  });
});
