import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { SkillsClient, SkillVerificationError, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOT_ANGLES, SHOT_MOVEMENTS, SHOT_SIZES, SHOT_STATUSES } from '../../src/contract/shots.js';
import { STORYBOARDING_SKILL_URI } from '../../src/mcp/skill-catalog.js';
import { deploy, type McpDeployment } from '../support/mcp.js';
import { STORE_TARGETS } from '../support/stores.js';

/**
 * The Skills extension (SEP-2640) through the official v2 client's SkillsClient, on both protocol eras: the
 * storyboarding skill is listed and fetched, and every file verifies against its size and SHA-256 digest.
 */

const ERAS = [{ mode: 'legacy' as const }, { mode: { pin: '2026-07-28' as const } }];

describe('the storyboarding skill', () => {
  let deployment: McpDeployment;
  beforeAll(async () => {
    deployment = await deploy('in-process', STORE_TARGETS[0]!);
  });
  afterAll(async () => deployment?.close());

  async function connect(mode: (typeof ERAS)[number]['mode']) {
    const client = new ClientV2({ name: 'skills-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(
      new TransportV2(new URL(deployment.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${deployment.world.tokens.viewer.secret}` } },
      }),
    );
    return client;
  }

  describe.each(ERAS)('era $mode', ({ mode }) => {
    let client: ClientV2;
    beforeAll(async () => {
      client = await connect(mode);
    });
    afterAll(async () => client?.close());

    it('declares the extension, lists the skill and verifies every file of its manifest', async () => {
      const skills = new SkillsClient(client);
      expect(skills.supported).toBe(true);
      const listing = await skills.list();
      expect(listing.invalid).toEqual([]);
      expect(listing.skills.map((skill) => skill.uri)).toEqual([STORYBOARDING_SKILL_URI]);
      const [skill] = listing.skills as [Skill];
      expect(skill.frontmatter.name).toBe('storyboarding');
      if (typeof mode === 'object') expect(listing).toMatchObject({ ttlMs: expect.any(Number), cacheScope: 'public' });

      const files = skill.resources === 'dynamic' ? [] : skill.resources;
      expect(files.map((file) => file.uri.slice(STORYBOARDING_SKILL_URI.length - 'SKILL.md'.length)).sort()).toEqual([
        'SKILL.md',
        'references/editing-safely.md',
        'references/runs-and-spend.md',
        'references/shot-vocabulary.md',
      ]);
      for (const file of files) {
        const read = await skills.read(skill, file.uri);
        expect(read.verified).toBe(true);
        // The digest is of the bytes in the package, as a host computes it.
        const onDisk = readFileSync(`skills/storyboarding/${file.uri.split('/storyboarding/')[1]}`);
        expect(file.digest).toBe(`sha256:${createHash('sha256').update(onDisk).digest('hex')}`);
        expect(read.bytes.byteLength).toBe(onDisk.length);
      }
      const manifest = await skills.read(skill);
      expect(manifest.frontmatter).toEqual(skill.frontmatter);
      expect(manifest.body).toContain('base_revision');
      expect(manifest.body).toContain('revision_conflict');
    });

    it('gets the skill by its SKILL.md URI, and refuses a URI that names no skill', async () => {
      const skills = new SkillsClient(client);
      const { skill } = await skills.get(STORYBOARDING_SKILL_URI);
      expect(skill.uri).toBe(STORYBOARDING_SKILL_URI);
      await expect(skills.get('skill://canvas-mcp/directing/SKILL.md')).rejects.toThrow(/No skill is served/);
    });

    it('refuses a file whose bytes do not match the manifest, as a host must', async () => {
      const skills = new SkillsClient(client);
      const { skills: entries } = await skills.list();
      const skill = entries[0]!;
      const files = skill.resources === 'dynamic' ? [] : skill.resources;
      const tampered = {
        ...skill,
        resources: files.map((file) =>
          file.uri.endsWith('editing-safely.md') ? { ...file, digest: `sha256:${'0'.repeat(64)}` } : file,
        ),
      };
      const refusal = await skills.read(tampered, 'references/editing-safely.md').catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(SkillVerificationError);
      expect((refusal as SkillVerificationError).reason).toBe('digest');
    });

    it('lists the skill’s SKILL.md among the resources', async () => {
      const { resources } = await client.listResources();
      expect(resources).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ uri: STORYBOARDING_SKILL_URI, name: 'storyboarding', mimeType: 'text/markdown' }),
        ]),
      );
    });
  });

  it('teaches exactly the shot words the contract accepts', () => {
    const vocabulary = readFileSync('skills/storyboarding/references/shot-vocabulary.md', 'utf8');
    const listed = (heading: string) => {
      const section = vocabulary.split(/^## /m).find((part) => part.startsWith(heading))!;
      return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
    };
    expect(listed('Shot size')).toEqual(Object.keys(SHOT_SIZES));
    expect(listed('Angle')).toEqual(Object.keys(SHOT_ANGLES));
    expect(listed('Movement')).toEqual(Object.keys(SHOT_MOVEMENTS));
    expect(listed('Status')).toEqual(Object.keys(SHOT_STATUSES));
  });
});
