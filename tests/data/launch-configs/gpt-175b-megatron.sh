#!/bin/bash
# A GPT-3 175B pre-training launch in the style of Megatron-LM's example scripts, written for PlanScope's tests from
# the argument names documented in megatron/training/arguments.py (no part of any script is copied).
export CUDA_DEVICE_MAX_CONNECTIONS=1

GPUS_PER_NODE=8
NUM_NODES=16          # 128 GPUs
MASTER_ADDR=${MASTER_ADDR:-localhost}
DATA_PATH=$1          # path and prefix of the tokenized corpus

DISTRIBUTED_ARGS=(
    --nproc_per_node $GPUS_PER_NODE
    --nnodes $NUM_NODES
    --master_addr $MASTER_ADDR
    --master_port 6000
)

MODEL_ARGS=(
    --num-layers 96
    --hidden-size 12288
    --num-attention-heads 96
    --seq-length 2048
    --max-position-embeddings 2048
    --vocab-size 51200
    --attention-backend fused   # flash, fused, unfused, local, auto
)

TRAINING_ARGS=(
    --micro-batch-size 1
    --global-batch-size 1536
    --rampup-batch-size 16 16 5859375
    --train-iters 500000
    --weight-decay 0.1
    --clip-grad 1.0
    --bf16
    --lr 6.0e-5
    --min-lr 6.0e-6
    --lr-decay-style cosine
    --recompute-granularity selective
    --use-distributed-optimizer
    --overlap-grad-reduce
    --overlap-param-gather
)

PARALLEL_ARGS=(
    --tensor-model-parallel-size 8
    --pipeline-model-parallel-size 8
    --num-layers-per-virtual-pipeline-stage 4
    --sequence-parallel
)

torchrun ${DISTRIBUTED_ARGS[@]} pretrain_gpt.py \
    ${MODEL_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    ${PARALLEL_ARGS[@]} \
    --data-path "$DATA_PATH" \
    --split 949,50,1 \
    --log-interval 100 \
    --save-interval 10000
