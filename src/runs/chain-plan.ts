import { z } from 'zod';
import { CanvasNode, isRunnableNodeType, type RunResource } from '../contract/index.js';
import { CanvasError } from '../shared/errors.js';
import { ID_PREFIX, canonicalJson, newId, sha256Hex } from '../shared/ids.js';
import type { ResultHead } from '../store/version-reads.js';
import type { Store } from '../store/store.js';
import { pendingResources, planRun, type RunContext, type RunPlan } from './operations.js';
import type { RunPricing } from './pricing.js';
import { runContextFor } from './submit.js';
import type { RunModels } from './run-models.js';

/**
 * "Run from here" (docs/runs.md, "Downstream chains"): which nodes a chain runs, in which order, and which
 * it skips. A node's inputs hash covers what its run is given (operation and input) and, for each node with an edge
 * into it, that node's result: the run it is now (a picked version, else its latest success), or its data when it
 * has no result. A step is cached when that hash equals the one of the node's last succeeded run; a step that runs
 * gives its downstream nodes a new upstream result, so they run too, unless the node holds a picked version (a new
 * run does not replace a pick, so what downstream nodes read does not change).
 */

export const MAX_CHAIN_STEPS = 100;

export interface ChainStepPlan {
  nodeId: string;
  nodeSeq: number;
  plan: RunPlan;
  cost: number;
  inputsHash: string;
  /** The earlier run whose result stands: the step is cached and nothing runs. */
  cachedRunId: string | null;
  /** Chosen ahead for a step that runs, so downstream steps can name it before it exists. */
  runId: string | null;
  /** True when the run will become the node's current result (it runs, and no picked version holds the node). */
  replacesResult: boolean;
  resources: RunResource[];
  /** Node ids of the steps (that run) this one waits for, and their run ids. */
  waitsForNodes: string[];
  waitsForRuns: string[];
}

export interface ChainPlan {
  rootNodeId: string;
  steps: ChainStepPlan[];
}

const EdgeEnds = z.object({ source: z.string(), target: z.string() });
const NodeData = z.object({ data: z.record(z.string(), z.unknown()).optional() });

interface GraphNode {
  body: string;
  seq: number;
}

/** The hash a run records as its inputs: operation, input, and the results of the nodes with an edge into it. */
export function inputsHashOf(plan: RunPlan, upstream: ReadonlyMap<string, string>): string {
  return sha256Hex(
    canonicalJson({
      operation: plan.operation,
      skill_id: plan.skillId,
      input: plan.input,
      upstream: [...upstream].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)),
    }),
  );
}

/** The version a person or agent picked for the node, when it is one of its versions: a new run does not replace it. */
function pickedVersion(data: Record<string, unknown>, head: ResultHead | undefined): string | null {
  const picked = data.externalRunId;
  return typeof picked === 'string' && head?.runIds.includes(picked) ? picked : null;
}

/** What a node gives the nodes downstream of it: its current result's run, or its data when it has none. */
function resultFingerprint(body: string, head: ResultHead | undefined): string {
  const data = NodeData.parse(JSON.parse(body)).data ?? {};
  if (head && head.runIds.length > 0) return `run:${pickedVersion(data, head) ?? head.runIds.at(-1)}`;
  return `data:${sha256Hex(canonicalJson(data))}`;
}

/** For a run of one node submitted alone: the results of the nodes with an edge into it, now (see inputsHashOf). */
export async function upstreamResults(
  store: Store,
  projectId: string,
  canvasId: string,
  nodeId: string,
): Promise<Map<string, string>> {
  const sources = [...new Set(await store.layout.edgeSources(projectId, canvasId, nodeId))];
  const heads = await store.versions.heads(projectId, canvasId, sources);
  const upstream = new Map<string, string>();
  for (const source of sources) {
    const stored = await store.layout.readNode(projectId, canvasId, source);
    if (stored) upstream.set(source, resultFingerprint(JSON.stringify(stored.node), heads.get(source)));
  }
  return upstream;
}

/** The nodes reachable from the root along edges, in dependency order (creation order among equals). */
function downstreamOrder(
  rootId: string,
  nodes: ReadonlyMap<string, GraphNode>,
  targets: ReadonlyMap<string, string[]>,
  sources: ReadonlyMap<string, string[]>,
): string[] {
  const reach = new Set([rootId]);
  const frontier = [rootId];
  while (frontier.length > 0) {
    for (const next of targets.get(frontier.pop()!) ?? []) {
      if (nodes.has(next) && !reach.has(next)) {
        reach.add(next);
        frontier.push(next);
      }
    }
  }
  const pending = new Map(
    [...reach].map((id) => [id, (sources.get(id) ?? []).filter((source) => reach.has(source)).length]),
  );
  const bySeq = (left: string, right: string) => nodes.get(left)!.seq - nodes.get(right)!.seq;
  const ready = [...pending]
    .filter(([, count]) => count === 0)
    .map(([id]) => id)
    .sort(bySeq);
  const order: string[] = [];
  while (ready.length > 0) {
    const id = ready.shift()!;
    order.push(id);
    for (const next of targets.get(id) ?? []) {
      if (!pending.has(next)) continue;
      const left = pending.get(next)! - 1;
      pending.set(next, left);
      if (left === 0) {
        ready.push(next);
        ready.sort(bySeq);
      }
    }
  }
  if (order.length < reach.size) {
    // The nodes left unordered are on a cycle or downstream of one: drop those that lead nowhere within them, until
    // only the cycle's nodes remain.
    const left = new Set([...reach].filter((id) => !order.includes(id)));
    for (let dropped = true; dropped;) {
      dropped = false;
      for (const id of left) {
        if (!(targets.get(id) ?? []).some((next) => left.has(next))) {
          left.delete(id);
          dropped = true;
        }
      }
    }
    const looped = [...left].sort(bySeq);
    throw new CanvasError(
      'not_runnable',
      `The nodes downstream of ${rootId} form a cycle (${looped.join(', ')}): a chain needs an order; remove an edge of the cycle.`,
      {
        node_id: rootId,
        cycle: looped,
      },
    );
  }
  return order;
}

/**
 * Plans the chain from `rootId`: the steps that run (with their run ids chosen now), the cached ones, and what
 * each waits for. Refused, naming the node, when a step cannot run; nothing is written.
 */
export async function planChain(
  store: Store,
  projectId: string,
  canvasId: string,
  rootId: string,
  pricing: RunPricing,
  models?: RunModels,
): Promise<ChainPlan> {
  const layout = await store.layout.loadLayout(projectId, canvasId);
  if (!layout) throw new CanvasError('not_found', `No canvas ${canvasId} in project ${projectId}.`);
  const nodes = new Map(layout.nodes.map((node) => [node.id, { body: node.body, seq: node.seq }]));
  if (!nodes.has(rootId))
    throw new CanvasError('not_found', `No node with id ${JSON.stringify(rootId)} on this canvas.`);
  const targets = new Map<string, string[]>();
  const sources = new Map<string, string[]>();
  for (const edge of layout.edges) {
    const { source, target } = EdgeEnds.parse(JSON.parse(edge.body));
    // Two edges between the same nodes (from different handles) are one dependency.
    targets.set(source, [...new Set([...(targets.get(source) ?? []), target])]);
    sources.set(target, [...new Set([...(sources.get(target) ?? []), source])]);
  }
  const order = downstreamOrder(rootId, nodes, targets, sources);
  const heads = await store.versions.heads(projectId, canvasId, null);
  const steps = new Map<string, ChainStepPlan>();
  // For a node that is not a running step: the running steps upstream of it, which its downstream steps wait for.
  const inheritedWaits = new Map<string, Set<string>>();

  for (const nodeId of order) {
    const { body, seq } = nodes.get(nodeId)!;
    const upstream = new Map<string, string>();
    const waits = new Set<string>();
    for (const source of sources.get(nodeId) ?? []) {
      const sourceNode = nodes.get(source);
      if (!sourceNode) continue;
      const step = steps.get(source);
      upstream.set(
        source,
        step?.replacesResult ? `run:${step.runId}` : resultFingerprint(sourceNode.body, heads.get(source)),
      );
      if (step?.runId) waits.add(source);
      else for (const waited of inheritedWaits.get(source) ?? []) waits.add(waited);
    }
    const type = z.object({ type: z.string() }).parse(JSON.parse(body)).type;
    if (!isRunnableNodeType(type)) {
      inheritedWaits.set(nodeId, waits);
      continue;
    }
    const node = CanvasNode.parse(JSON.parse(body));
    const plan = await planStep(store, projectId, canvasId, node, steps, models);
    const inputsHash = inputsHashOf(plan, upstream);
    const head = heads.get(nodeId);
    const cached = head !== undefined && head.lastInputsHash === inputsHash;
    const picked = pickedVersion(NodeData.parse(JSON.parse(body)).data ?? {}, head);
    if (cached) inheritedWaits.set(nodeId, waits);
    const waitsForNodes = cached ? [] : [...waits];
    steps.set(nodeId, {
      nodeId,
      nodeSeq: seq,
      plan,
      cost: cached ? 0 : pricing(plan),
      inputsHash,
      // The result that stands: the picked version when there is one, else the latest.
      cachedRunId: cached ? (picked ?? head.runIds.at(-1)!) : null,
      runId: cached ? null : newId(ID_PREFIX.nodeRun),
      replacesResult: !cached && picked === null,
      resources: cached ? [] : pendingResources(plan),
      waitsForNodes,
      waitsForRuns: waitsForNodes.map((waited) => steps.get(waited)!.runId!),
    });
  }
  if (steps.size === 0) {
    throw new CanvasError(
      'not_runnable',
      `Nothing runs from ${rootId}: neither it nor any node downstream of it along edges is a node that runs.`,
      { node_id: rootId },
    );
  }
  if (steps.size > MAX_CHAIN_STEPS) {
    throw new CanvasError(
      'limit_exceeded',
      `A chain runs at most ${MAX_CHAIN_STEPS} nodes; ${steps.size} are downstream of ${rootId}. Run from a node further down.`,
      {
        node_id: rootId,
        steps: steps.size,
        limit: MAX_CHAIN_STEPS,
      },
    );
  }
  return { rootNodeId: rootId, steps: [...steps.values()] };
}

/**
 * The run a step would submit. An audio trim fed by an audio step of this chain that runs trims that step's new
 * audio (its asset id is chosen ahead), not the audio it had before.
 */
async function planStep(
  store: Store,
  projectId: string,
  canvasId: string,
  node: CanvasNode,
  steps: ReadonlyMap<string, ChainStepPlan>,
  models: RunModels | undefined,
): Promise<RunPlan> {
  let context: RunContext = await runContextFor(store, projectId, canvasId, node, { models });
  if (node.type === 'audioTrimNode') {
    for (const source of await store.layout.edgeSources(projectId, canvasId, node.id)) {
      const step = steps.get(source);
      const audio = step?.replacesResult ? step.resources.find((resource) => resource.kind === 'audio') : undefined;
      if (audio) {
        context = { ...context, sourceAudioAssetId: audio.asset_id };
        break;
      }
    }
  }
  try {
    return planRun(node, context);
  } catch (error) {
    if (error instanceof CanvasError)
      throw new CanvasError(error.code, `${node.id}: ${error.message}`, { ...error.details, node_id: node.id });
    throw error;
  }
}
