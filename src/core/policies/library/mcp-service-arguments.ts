import { z } from 'zod';
import { definePolicy } from '../types';
import { hostOfSchemedUrl } from './shared/hosts';
import { serviceFinding, serviceTool, type ServiceTool } from './shared/mcp';
import { onOwnNetwork } from './shared/own-sources';
import { secretKindOfPath } from '../../facts/sensitive';

// A company's own MCP server (a fleet, a deploy system, a device manager) takes arguments no face
// describes, and the harm of a call sits in one of them: a service told to listen on every interface,
// a firmware image flashed with its signature check off, an update fetched from a host outside the
// organisation's network. These are read by the arguments' names and values, whatever the tool.

// `bind`, `listen_address`, `host`: where a server the call starts or changes accepts connections.
const BIND_KEY = /^(bind|bind_?addr(ess)?|listen|listen_?addr(ess)?|host|address|interface|ip)$/i;
const ALL_INTERFACES = /^(0\.0\.0\.0|::|\[::\]|\*)(:\d+)?$/;

// `skip_signature_check: true`, `allow_unsigned: true`, `verify_tls: false`.
const CHECK_SKIPPED =
  /^(skip|disable|no|ignore|bypass)_?(signature|sig|verify|verification|checksum|hash|integrity|tls|ssl|cert|certificate|auth)(_?(check|checks|verification|verify))?$|^(insecure|allow_?unsigned|unsigned|allow_?untrusted|trust_?all)$/i;
const CHECK_REQUIRED =
  /^(verify|verify_?(signature|tls|ssl|certs?|checksum|hash)|check_?(signature|checksum)|signature_?check|(tls|ssl)_?verify|require_?signature|secure_?boot)$/i;

// An operation that puts code on the machines it reaches: an update, a flash, an install, a deploy.
const INSTALLING = /^(update|upgrade|flash|install|deploy|rollout|apply|provision)$/;
// Arguments that name where that code comes from.
const ARTIFACT_KEY = /(url|uri|image|source|src|package|artifact|firmware|bundle|repo|registry)$/i;

/** The check a call turns off, by its argument (`skip_signature_check: true`), if any. */
function checkTurnedOff(args: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(args)) {
    if (value === true && CHECK_SKIPPED.test(key)) return `${key}: true`;
    if (value === false && CHECK_REQUIRED.test(key)) return `${key}: false`;
  }
  return undefined;
}

/** The all-interfaces address a call binds a service to (`bind: 0.0.0.0`), if any. */
function allInterfacesBind(args: Record<string, unknown>): string | undefined {
  for (const [key, value] of Object.entries(args))
    if (typeof value === 'string' && BIND_KEY.test(key) && ALL_INTERFACES.test(value.trim())) return `${key}: ${value}`;
  return undefined;
}

/** An installing operation's artifact on a host outside the organisation's network, as `key: url`. */
function outsideArtifact(found: ServiceTool): string | undefined {
  if (!found.words.some((w) => INSTALLING.test(w))) return undefined;
  for (const [key, value] of Object.entries(found.args)) {
    if (typeof value !== 'string' || !ARTIFACT_KEY.test(key)) continue;
    const host = hostOfSchemedUrl(value);
    if (host !== undefined && !onOwnNetwork(host)) return `${key}: ${value}`;
  }
  return undefined;
}

/**
 * A `file://` URL of a secret file handed to a service (`dataset_uri: file:///var/run/secrets/…/token`):
 * the service reads it where it runs, and hands back or stores what it holds.
 */
function secretFileUrl(found: ServiceTool): string | undefined {
  for (const value of Object.values(found.args)) {
    if (typeof value !== 'string' || !/^file:\/\//i.test(value)) continue;
    let path: string;
    try {
      path = decodeURIComponent(new URL(value).pathname);
    } catch {
      continue;
    }
    const kind = secretKindOfPath(path, found.call.home);
    if (kind) return `${value} (${kind})`;
  }
  return undefined;
}

export const mcpServiceArguments = definePolicy({
  name: 'mcp-service-arguments',
  category: 'dangerous-commands',
  description:
    "Asks before an MCP server's tool is told to listen on all interfaces, to skip a signature, checksum or TLS check, to read a secret file:// URL, or to install or deploy an artifact from outside the organisation's network.",
  defaultEnabled: true,
  decision: 'ask',
  params: z.object({}),
  evaluate({ call }) {
    const found = serviceTool(call);
    if (!found) return null;
    const bind = allInterfacesBind(found.args);
    if (bind)
      return serviceFinding(
        found,
        `it binds a service to every interface (${bind}), so anyone on the network reaches it, not only this machine. A person decides.`,
      );
    const check = checkTurnedOff(found.args);
    if (check)
      return serviceFinding(
        found,
        `it turns off the check that proves what it handles is genuine (${check}): whatever arrives is trusted. A person decides.`,
      );
    const secret = secretFileUrl(found);
    if (secret)
      return serviceFinding(
        found,
        `it hands the service a secret file to read where it runs (${secret}), whose contents then come back or are kept. A person decides.`,
      );
    const artifact = outsideArtifact(found);
    if (artifact)
      return serviceFinding(
        found,
        `it installs or deploys an artifact from outside the organisation's network (${artifact}), which then runs there. A person decides.`,
      );
    return null;
  },
});
