import { Document, NodeIO } from '@gltf-transform/core';
import { createHash } from 'node:crypto';

/**
 * A 3D world asset for threeDWorldNode runs: a binary glTF (GLB) scene with a ground plane and a few blocks whose
 * sizes, places and colours derive from the prompt, so each prompt has its own small, real world a viewer can load.
 * Written with glTF-Transform rather than by hand.
 */

function box(size: [number, number, number]): { positions: Float32Array; indices: Uint16Array } {
  const [x, y, z] = size.map((value) => value / 2) as [number, number, number];
  const corners = [
    [-x, -y, -z],
    [x, -y, -z],
    [x, y, -z],
    [-x, y, -z],
    [-x, -y, z],
    [x, -y, z],
    [x, y, z],
    [-x, y, z],
  ];
  const faces = [
    [0, 1, 2, 0, 2, 3],
    [4, 6, 5, 4, 7, 6],
    [0, 4, 5, 0, 5, 1],
    [3, 2, 6, 3, 6, 7],
    [0, 3, 7, 0, 7, 4],
    [1, 5, 6, 1, 6, 2],
  ];
  return { positions: new Float32Array(corners.flat()), indices: new Uint16Array(faces.flat()) };
}

export async function worldGlb(seed: string, blockCount = 6): Promise<Buffer> {
  const bytes = createHash('sha256').update(seed).digest();
  const document = new Document();
  const buffer = document.createBuffer();
  const scene = document.createScene('world');
  const part = (
    name: string,
    size: [number, number, number],
    at: [number, number, number],
    color: [number, number, number],
  ) => {
    const shape = box(size);
    const primitive = document
      .createPrimitive()
      .setAttribute('POSITION', document.createAccessor().setType('VEC3').setArray(shape.positions).setBuffer(buffer))
      .setIndices(document.createAccessor().setType('SCALAR').setArray(shape.indices).setBuffer(buffer))
      .setMaterial(document.createMaterial(`${name}-material`).setBaseColorFactor([...color, 1]));
    scene.addChild(
      document.createNode(name).setMesh(document.createMesh(name).addPrimitive(primitive)).setTranslation(at),
    );
  };
  part('ground', [20, 0.2, 20], [0, -0.1, 0], [0.25, 0.3, 0.25]);
  for (let index = 0; index < blockCount; index += 1) {
    const at = (offset: number) => (bytes[(index * 5 + offset) % 32]! / 255) * 16 - 8;
    const height = 0.5 + (bytes[(index * 3 + 7) % 32]! / 255) * 4;
    const shade = bytes[(index * 7 + 11) % 32]! / 255;
    part(
      `block-${index + 1}`,
      [1 + shade, height, 1 + (1 - shade)],
      [at(1), height / 2, at(2)],
      [0.4 + shade * 0.5, 0.35, 0.6 - shade * 0.3],
    );
  }
  return Buffer.from(await new NodeIO().writeBinary(document));
}
