import type { ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import type { BackendClient } from './backend-client.js';

/**
 * `resource_link` content items for the outputs a node run finished (MCP tools.mdx, "Resource Links"), beside the
 * unchanged structured result: a client can show or fetch each file without reading the run record.
 */

interface RunOutputs {
  node_id?: unknown;
  outputs?: Array<{ asset_id: string; kind: string; url: string; mime_type: string }>;
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'video/webm': 'webm',
  'video/mp4': 'mp4',
  'model/gltf-binary': 'glb',
  'application/json': 'json',
};

/** `json` is the run record with its URLs already absolute. */
export async function runOutputLinks(client: BackendClient, json: string): Promise<ResourceLink[]> {
  const run = JSON.parse(json) as RunOutputs;
  const outputs = Array.isArray(run.outputs) ? run.outputs : [];
  if (outputs.length === 0) return [];
  const sizes = await client.assetSizes(outputs.map((output) => ({ assetId: output.asset_id, url: output.url })));
  const nodeId = typeof run.node_id === 'string' ? run.node_id : 'output';
  return outputs.map((output, index) => {
    const extension = EXTENSIONS[output.mime_type.split(';')[0]!.trim()] ?? 'bin';
    const suffix = outputs.length > 1 ? `-${index + 1}` : '';
    const size = sizes.get(output.asset_id);
    return {
      type: 'resource_link',
      uri: output.url,
      name: `${nodeId}-${output.kind}${suffix}.${extension}`,
      mimeType: output.mime_type,
      ...(size !== undefined ? { size } : {}),
    };
  });
}
