import { join } from 'node:path';
import { pollWhile, rawRequest } from '../../test/support/raw-http.js';
import { agentHeaders, demoCredentials, serve, sleep, stop, type Row } from '../harness.js';
import { scenarioStore } from '../stores.js';

/**
 * The requests that cost a naive server the most per byte, each at the default body limit (1 MiB), while /healthz is
 * polled: the slowest health answer is how long one request held the event loop (budget: 100 ms).
 */

const HEAD =
  '{"project_id":"demo","canvas_id":"main","base_revision":0,"node":{"id":"n","type":"imageGenNode","position":{"x":0,"y":0},"data":{"prompt":"p","size":"1K","imageUrl":null,"aspectRatio":"1:1"';
const call = (args: string) =>
  `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_canvas_node","arguments":${args}}}`;

export function worstBodies(): Array<[string, string]> {
  const wrong =
    '{"id":1,"prop_id":2,"name":3,"label":4,"marker_color":5,"semantic_label":6,"type":7,"category":8,"shape_hint":9}';
  const many = new Array(1000).fill(wrong).join(',');
  const bundle = `{"schema_version":"director_control_bundle_v1","dir":"d","paths":{},"rel_paths":{},"frame_meta":{"schema_version":"director_frame_meta_v1","source":{"source_id":"s","source_type":"sog","source_kind":"master"},"camera":{},"layer":{"source_id":"s","actors":[${many}],"props":[],"stagings":[]},"props":[${many}],"stagings":[${many}],"actors":[${many}]}}`;
  return [
    [
      '80,000 unknown keys',
      call(`${HEAD},${Array.from({ length: 80_000 }, (_, index) => `"k${index}":0`).join(',')}}}}`),
    ],
    ['450,000 array items', call(`${HEAD},"marks":[${new Array(450_000).fill('0').join(',')}]}}}`)],
    ['36,000 field issues', call(`${HEAD},"director_control_bundle":${bundle}}}}`)],
    [
      '400,000 levels of nesting',
      call(`${HEAD},"candidate_origin":{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}}}}`),
    ],
    [
      '60,000 small objects',
      call(`${HEAD},"candidate_origin":{"a":[${new Array(60_000).fill('{"i":1,"j":[1]}').join(',')}]}},"z":1}}`),
    ],
  ];
}

export async function amplification(): Promise<Row> {
  const store = await scenarioStore('sqlite');
  const served = await serve([...store.flags, '--workers', '0'], join(store.dataDir, 'serve.log'));
  try {
    const { token, chatRun } = await demoCredentials(served.logFile);
    const headers = agentHeaders(token, chatRun);
    await sleep(1000); // the body check worker starts in the background after listen
    await fetch(`${served.url}/healthz`);
    let slowest = 0;
    let largestReply = 0;
    let clean = 0;
    const bodies = worstBodies();
    for (const [, body] of bodies) {
      const health = pollWhile(`${served.url}/healthz`, 5);
      const answer = await rawRequest(`${served.url}/mcp`, { headers, body });
      await sleep(20);
      const samples = await health.stop();
      slowest = Math.max(slowest, ...samples.map((sample) => sample.ms));
      largestReply = Math.max(largestReply, answer.text.length);
      const code = (answer.json as { result?: { structuredContent?: { error?: { code?: string } } } } | undefined)
        ?.result?.structuredContent?.error?.code;
      if (answer.status === 200 && code === 'invalid_arguments') clean += 1;
    }
    return {
      scenario: 'error amplification, worst bodies at 1 MiB',
      store: 'sqlite',
      refusedCleanly: `${((clean / bodies.length) * 100).toFixed(0)}%`,
      notes: `slowest /healthz ${slowest.toFixed(1)} ms (budget 100); largest answer ${largestReply} bytes`,
      pass: clean === bodies.length && slowest < 100 && largestReply < 64 * 1024,
    };
  } finally {
    await stop(served.child);
    store.destroy();
  }
}
