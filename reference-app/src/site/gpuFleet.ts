/** GPU fleet shown on the home and hosting pages (product-rules §1: A100, H100, consumer cards). */
export const gpuFleet = [
  { gpu: 'RTX 4090', vram: '24 GB', use: 'Image generation, fine-tuning small models' },
  { gpu: 'RTX A5000', vram: '24 GB', use: 'Speech, voice cloning, background removal' },
  { gpu: 'L40S', vram: '48 GB', use: 'Video generation, 3D' },
  { gpu: 'A100', vram: '80 GB', use: 'Large language models, training' },
  { gpu: 'H100', vram: '80 GB', use: 'Frontier-scale inference' },
] as const;
