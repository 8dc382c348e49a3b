/**
 * The default price catalog, as YAML text in a module so that tsc ships it with the build (no
 * asset copying). Format and override rules: docs/cost.md. The numbers are approximate list prices
 * (see the file's own header): verify them before billing anyone.
 */

/** The shipped default price catalog (YAML). */
export const DEFAULT_PRICE_CATALOG_YAML = `# Infersight's default price catalog: on-demand list prices, USD per instance-hour, Linux.
#
# APPROXIMATE — verify before billing. These are list prices as published by each provider around
# the date below, rounded, written down from the providers' public price pages (no price API is
# queried: Infersight runs offline). Prices change (AWS cut P4 and P5 prices in 2025), differ by
# region, and exclude storage, network and support. Override what you pay in your own catalog file.
#
# The SageMaker (ml.*) prices are the simulator's (src/sim/data/instance-types.ts): the demo's ground
# truth. A test keeps the two equal.
taken_on: "2025-01-15"
region: us-east-1
instance_types:
  # AWS SageMaker real-time inference, us-east-1.
  - { name: ml.g5.xlarge, provider: aws, price_per_hour: 1.408, gpus: 1, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: ml.g5.2xlarge, provider: aws, price_per_hour: 1.515, gpus: 1, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: ml.g5.12xlarge, provider: aws, price_per_hour: 7.09, gpus: 4, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: ml.g5.48xlarge, provider: aws, price_per_hour: 20.36, gpus: 8, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: ml.g6.xlarge, provider: aws, price_per_hour: 1.167, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: ml.g6.4xlarge, provider: aws, price_per_hour: 1.943, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: ml.g6.12xlarge, provider: aws, price_per_hour: 6.622, gpus: 4, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: ml.g6e.xlarge, provider: aws, price_per_hour: 2.336, gpus: 1, gpu_model: NVIDIA L40S, gpu_memory_gib: 48 }
  - { name: ml.g6e.12xlarge, provider: aws, price_per_hour: 13.12, gpus: 4, gpu_model: NVIDIA L40S, gpu_memory_gib: 48 }
  - { name: ml.p4d.24xlarge, provider: aws, price_per_hour: 37.688, gpus: 8, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40 }
  - { name: ml.p4de.24xlarge, provider: aws, price_per_hour: 47.11, gpus: 8, gpu_model: NVIDIA A100-SXM4-80GB, gpu_memory_gib: 80 }
  - { name: ml.p5.48xlarge, provider: aws, price_per_hour: 113.07, gpus: 8, gpu_model: NVIDIA H100 80GB HBM3, gpu_memory_gib: 80 }
  # AWS EC2, us-east-1.
  - { name: g5.xlarge, provider: aws, price_per_hour: 1.006, gpus: 1, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: g5.2xlarge, provider: aws, price_per_hour: 1.212, gpus: 1, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: g5.12xlarge, provider: aws, price_per_hour: 5.672, gpus: 4, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: g5.48xlarge, provider: aws, price_per_hour: 16.288, gpus: 8, gpu_model: NVIDIA A10G, gpu_memory_gib: 24 }
  - { name: g6.xlarge, provider: aws, price_per_hour: 0.805, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: g6.4xlarge, provider: aws, price_per_hour: 1.323, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: g6.12xlarge, provider: aws, price_per_hour: 4.602, gpus: 4, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: g6.48xlarge, provider: aws, price_per_hour: 13.35, gpus: 8, gpu_model: NVIDIA L4, gpu_memory_gib: 24 }
  - { name: g6e.xlarge, provider: aws, price_per_hour: 1.861, gpus: 1, gpu_model: NVIDIA L40S, gpu_memory_gib: 48 }
  - { name: g6e.12xlarge, provider: aws, price_per_hour: 10.493, gpus: 4, gpu_model: NVIDIA L40S, gpu_memory_gib: 48 }
  - { name: g6e.48xlarge, provider: aws, price_per_hour: 30.131, gpus: 8, gpu_model: NVIDIA L40S, gpu_memory_gib: 48 }
  - { name: p4d.24xlarge, provider: aws, price_per_hour: 32.773, gpus: 8, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40 }
  - { name: p4de.24xlarge, provider: aws, price_per_hour: 40.966, gpus: 8, gpu_model: NVIDIA A100-SXM4-80GB, gpu_memory_gib: 80 }
  - { name: p5.48xlarge, provider: aws, price_per_hour: 98.32, gpus: 8, gpu_model: NVIDIA H100 80GB HBM3, gpu_memory_gib: 80 }
  # Google Cloud Compute Engine, us-central1 (GPU and VM price together).
  - { name: a2-highgpu-1g, provider: gcp, price_per_hour: 3.673, gpus: 1, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40, region: us-central1 }
  - { name: a2-highgpu-2g, provider: gcp, price_per_hour: 7.347, gpus: 2, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40, region: us-central1 }
  - { name: a2-highgpu-4g, provider: gcp, price_per_hour: 14.694, gpus: 4, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40, region: us-central1 }
  - { name: a2-highgpu-8g, provider: gcp, price_per_hour: 29.387, gpus: 8, gpu_model: NVIDIA A100-SXM4-40GB, gpu_memory_gib: 40, region: us-central1 }
  - { name: a2-ultragpu-1g, provider: gcp, price_per_hour: 5.069, gpus: 1, gpu_model: NVIDIA A100-SXM4-80GB, gpu_memory_gib: 80, region: us-central1 }
  - { name: a2-ultragpu-8g, provider: gcp, price_per_hour: 40.55, gpus: 8, gpu_model: NVIDIA A100-SXM4-80GB, gpu_memory_gib: 80, region: us-central1 }
  - { name: a3-highgpu-8g, provider: gcp, price_per_hour: 88.49, gpus: 8, gpu_model: NVIDIA H100 80GB HBM3, gpu_memory_gib: 80, region: us-central1 }
  - { name: g2-standard-4, provider: gcp, price_per_hour: 0.707, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24, region: us-central1 }
  - { name: g2-standard-8, provider: gcp, price_per_hour: 0.854, gpus: 1, gpu_model: NVIDIA L4, gpu_memory_gib: 24, region: us-central1 }
  - { name: g2-standard-24, provider: gcp, price_per_hour: 2.0, gpus: 2, gpu_model: NVIDIA L4, gpu_memory_gib: 24, region: us-central1 }
  - { name: g2-standard-48, provider: gcp, price_per_hour: 4.0, gpus: 4, gpu_model: NVIDIA L4, gpu_memory_gib: 24, region: us-central1 }
  - { name: g2-standard-96, provider: gcp, price_per_hour: 8.0, gpus: 8, gpu_model: NVIDIA L4, gpu_memory_gib: 24, region: us-central1 }
  # Azure virtual machines, East US.
  - { name: Standard_NC24ads_A100_v4, provider: azure, price_per_hour: 3.673, gpus: 1, gpu_model: NVIDIA A100 80GB PCIe, gpu_memory_gib: 80, region: eastus }
  - { name: Standard_NC48ads_A100_v4, provider: azure, price_per_hour: 7.346, gpus: 2, gpu_model: NVIDIA A100 80GB PCIe, gpu_memory_gib: 80, region: eastus }
  - { name: Standard_NC96ads_A100_v4, provider: azure, price_per_hour: 14.692, gpus: 4, gpu_model: NVIDIA A100 80GB PCIe, gpu_memory_gib: 80, region: eastus }
  - { name: Standard_ND96isr_H100_v5, provider: azure, price_per_hour: 98.32, gpus: 8, gpu_model: NVIDIA H100 80GB HBM3, gpu_memory_gib: 80, region: eastus }
  - { name: Standard_NV36ads_A10_v5, provider: azure, price_per_hour: 3.2, gpus: 1, gpu_model: NVIDIA A10, gpu_memory_gib: 24, region: eastus }
  - { name: Standard_NV72ads_A10_v5, provider: azure, price_per_hour: 6.52, gpus: 2, gpu_model: NVIDIA A10, gpu_memory_gib: 24, region: eastus }
`;
