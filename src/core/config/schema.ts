import { z } from 'zod';

// One schema for every scope (user, project, local, --config). Unknown keys are
// refused so a typo never silently turns a protection off.

export const failureDecisionSchema = z.enum(['deny', 'ask', 'allow']);

export const policySettingSchema = z
  .object({
    enabled: z.boolean().optional(),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const pathTargetSchema = z
  .object({
    param: z.string().min(1),
    aliases: z.array(z.string().min(1)).optional(),
    /** `list`: the tool names the path's entries or metadata (a folder listing, a glob), never its contents. */
    access: z.enum(['read', 'list', 'write']),
  })
  .strict();

export const toolFamilySchema = z.enum(['shell', 'read', 'write', 'edit', 'network', 'search', 'other']);

export const toolFaceSchema = z
  .object({
    family: toolFamilySchema,
    pathTarget: pathTargetSchema.optional(),
    commandParam: z.string().min(1).optional(),
    urlParam: z.string().min(1).optional(),
    /** A parameter whose prose names the URLs the tool fetches (Gemini's web_fetch prompt), read when urlParam is absent. */
    urlText: z.string().min(1).optional(),
    contentParams: z.array(z.string().min(1)).optional(),
    summary: z.array(z.string().min(1)).optional(),
  })
  .strict();

/** A face as the policies read it: the declared shape, the tool it is for, and where it came from. */
export type ToolFace = z.infer<typeof toolFaceSchema> & {
  tool: string;
  builtIn: boolean;
  /** Read from an MCP tool's own parameter names (inferred-faces.ts), not declared. */
  inferred?: boolean;
};

export const semanticSchema = z
  .object({
    mode: z.enum(['off', 'observe', 'enforce']).optional(),
    provider: z.enum(['systemone', 'openai', 'anthropic', 'vscode-lm']).optional(),
    url: z.string().url().optional(),
    model: z.string().min(1).optional(),
    apiKeyEnv: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().max(60_000).optional(),
    thresholds: z
      .object({
        fire: z.number().min(0).max(1).optional(),
        deny: z.number().min(0).max(1).optional(),
        injection: z.number().min(0).max(1).optional(),
        /** task-step and user-asked-operation must reach this for the human's request to clear a policy. */
        taskAgree: z.number().min(0).max(1).optional(),
        /** beyond-task must stay at or below this for the human's request to clear a policy. */
        beyondTask: z.number().min(0).max(1).optional(),
      })
      .strict()
      .optional(),
    policies: z
      .record(
        z.string(),
        z.object({ enabled: z.boolean().optional(), mode: z.enum(['deny', 'warn']).optional() }).strict(),
      )
      .optional(),
  })
  .strict();

/** How long a Cloud review is waited for when `cloud.timeoutMs` is not set. */
export const DEFAULT_CLOUD_TIMEOUT_MS = 5_000;

/** A Cloud policy id as the Cloud review contract accepts one. */
export const CLOUD_POLICY_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The person's words go there: https, or plain http only to this machine. */
function isCloudUrl(text: string): boolean {
  try {
    const url = new URL(text);
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

// Org-managed checks (the Cloud review contract). Taken from the user scope, the --config file or a
// trusted project only: these settings decide where the person's words are sent.
export const cloudSchema = z
  .object({
    mode: z
      .enum(['off', 'observe', 'enforce'])
      .describe("Org-managed checks: off (default), observe (record Cloud's verdict only) or enforce")
      .optional(),
    url: z
      .string()
      .url()
      .refine(isCloudUrl, 'an https URL (http only to a loopback host)')
      .describe("The org's Cloud base URL; reviews go to <url>/enforcement/v1/jev/systemone")
      .optional(),
    keyEnv: z
      .string()
      .min(1)
      .describe('The environment variable holding the machine key (in VS Code: the key stored with Set Judge API Key)')
      .optional(),
    machineId: z.string().min(1).max(256).describe("This machine's id in the org's Cloud").optional(),
    observedPolicies: z
      .array(z.string().regex(CLOUD_POLICY_ID, 'a Cloud policy id'))
      .describe('Cloud policy ids whose checks this machine records as would-have, never applies')
      .optional(),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(60_000)
      .describe('How long to wait for Cloud (default 5000); past it the local result stands')
      .optional(),
  })
  .strict();

export const configSchema = z
  .object({
    $schema: z.string().optional(),
    policies: z.record(z.string(), policySettingSchema).optional(),
    toolFaces: z.record(z.string(), z.unknown()).optional(),
    allowTools: z.array(z.string().min(1)).optional(),
    redaction: z
      .object({
        allowlist: z.array(z.string().regex(/^[0-9a-f]{64}$/, 'a keyed hash: 64 hex characters')).optional(),
      })
      .strict()
      .optional(),
    semantic: semanticSchema.optional(),
    cloud: cloudSchema.optional(),
    approvals: z
      .object({
        timeoutSeconds: z.number().int().min(1).max(3600).optional(),
      })
      .strict()
      .optional(),
    failure: z
      .object({
        decision: failureDecisionSchema.optional(),
      })
      .strict()
      .optional(),
    budget: z
      .object({
        deterministicMs: z.number().int().min(50).max(60_000).optional(),
      })
      .strict()
      .optional(),
    log: z
      .object({
        maxBytes: z.number().int().min(4096).optional(),
        keep: z.number().int().min(1).max(100).optional(),
      })
      .strict()
      .optional(),
    trustedRoots: z.array(z.string().min(1)).optional(),
  })
  .strict();

export type WardenConfigFile = z.infer<typeof configSchema>;
export type ConfigScope = 'default' | 'user' | 'project' | 'local' | 'cli';
