#include "Gemm.h"

#include <algorithm>

#include "Common.h"

#include <cublasLt.h>

#include <cmath>
#include <cstring>
#include <random>

namespace planscope::profile {

namespace {
void checkCublas(cublasStatus_t status, const char* what)
{
    if (status == CUBLAS_STATUS_SUCCESS) return;
    fail(kExitNoGpu, std::string("cuBLASLt error in ") + what + ": " + cublasLtGetStatusString(status) + " ("
            + std::to_string(int(status)) + ")");
}
#define PS_CUBLAS(call) checkCublas((call), #call)

constexpr std::size_t kWorkspaceBytes = std::size_t(32) << 20;

// Fills `bytes` of device memory by repeating a random host pattern (doubling device-to-device copies).
void fillRandom(void* device, std::size_t bytes, const std::vector<unsigned char>& pattern)
{
    const std::size_t first = std::min(bytes, pattern.size());
    PS_CUDA(cudaMemcpy(device, pattern.data(), first, cudaMemcpyHostToDevice));
    std::size_t done = first;
    auto* base = static_cast<unsigned char*>(device);
    while (done < bytes) {
        const std::size_t n = std::min(done, bytes - done);
        PS_CUDA(cudaMemcpy(base + done, base, n, cudaMemcpyDeviceToDevice));
        done += n;
    }
}

std::vector<unsigned char> bf16Pattern(std::mt19937& rng, std::size_t elements)
{
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<unsigned char> out(elements * 2);
    for (std::size_t i = 0; i < elements; ++i) {
        const float f = dist(rng);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, sizeof bits);
        const auto b = std::uint16_t(bits >> 16); // truncation to bf16
        std::memcpy(&out[2 * i], &b, 2);
    }
    return out;
}

// e4m3 values of magnitude below ~2 (exponent field <= 7; never the NaN pattern S.1111.111).
std::vector<unsigned char> fp8Pattern(std::mt19937& rng, std::size_t elements)
{
    std::uniform_int_distribution<int> dist(0, 255);
    std::vector<unsigned char> out(elements);
    for (auto& b : out) {
        const int r = dist(rng);
        b = static_cast<unsigned char>((r & 0x80) | ((r & 0x07) << 3) | ((r >> 3) & 0x07));
    }
    return out;
}

struct Matmul {
    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulHeuristicResult_t algo {};
    bool ok = false;
    ~Matmul()
    {
        if (a) cublasLtMatrixLayoutDestroy(a);
        if (b) cublasLtMatrixLayoutDestroy(b);
        if (c) cublasLtMatrixLayoutDestroy(c);
        if (op) cublasLtMatmulDescDestroy(op);
    }
};

// bf16: D = A * B, column-major, no transposes (as torch.matmul runs it). fp8: A transposed (the layout
// cuBLASLt requires for fp8), bf16 output, fp32 accumulation.
void prepare(Matmul& mm, cublasLtHandle_t handle, const GemmShape& shape, bool fp8)
{
    const cudaDataType_t in = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
    PS_CUBLAS(cublasLtMatmulDescCreate(&mm.op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    const cublasOperation_t ta = fp8 ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t tb = CUBLAS_OP_N;
    PS_CUBLAS(cublasLtMatmulDescSetAttribute(mm.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    PS_CUBLAS(cublasLtMatmulDescSetAttribute(mm.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    // Column-major D (m x n) = op(A) (m x k) * B (k x n); fp8's A is stored k x m and transposed.
    const auto m = std::uint64_t(shape.m), n = std::uint64_t(shape.n), k = std::uint64_t(shape.k);
    if (fp8)
        PS_CUBLAS(cublasLtMatrixLayoutCreate(&mm.a, in, k, m, std::int64_t(k)));
    else
        PS_CUBLAS(cublasLtMatrixLayoutCreate(&mm.a, in, m, k, std::int64_t(m)));
    PS_CUBLAS(cublasLtMatrixLayoutCreate(&mm.b, in, k, n, std::int64_t(k)));
    PS_CUBLAS(cublasLtMatrixLayoutCreate(&mm.c, CUDA_R_16BF, m, n, std::int64_t(m)));
    cublasLtMatmulPreference_t pref = nullptr;
    PS_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
    const std::uint64_t workspace = kWorkspaceBytes;
    PS_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
        sizeof workspace));
    int returned = 0;
    const cublasStatus_t st = cublasLtMatmulAlgoGetHeuristic(handle, mm.op, mm.a, mm.b, mm.c, mm.c, pref, 1, &mm.algo, &returned);
    cublasLtMatmulPreferenceDestroy(pref);
    mm.ok = st == CUBLAS_STATUS_SUCCESS && returned > 0;
}

struct Buffers {
    DeviceBuffer a, b, d, workspace;
    DeviceBuffer a8, b8;
};

void run(cublasLtHandle_t handle, const Matmul& mm, const void* a, const void* b, void* d, const DeviceBuffer& ws,
    cudaStream_t stream)
{
    const float alpha = 1.0f, beta = 0.0f;
    PS_CUBLAS(cublasLtMatmul(handle, mm.op, &alpha, a, mm.a, b, mm.b, &beta, d, mm.c, d, mm.c, &mm.algo.algo,
        ws.get(), ws.size(), stream));
}

double timeMedian(cublasLtHandle_t handle, const Matmul& mm, const void* a, const void* b, void* d,
    const DeviceBuffer& ws, cudaStream_t stream, int warmup, int iterations)
{
    for (int i = 0; i < warmup; ++i) run(handle, mm, a, b, d, ws, stream);
    const auto count = static_cast<std::size_t>(iterations);
    std::vector<cudaEvent_t> start(count), end(count);
    for (std::size_t i = 0; i < start.size(); ++i) {
        PS_CUDA(cudaEventCreate(&start[i]));
        PS_CUDA(cudaEventCreate(&end[i]));
    }
    for (std::size_t i = 0; i < start.size(); ++i) {
        PS_CUDA(cudaEventRecord(start[i], stream));
        run(handle, mm, a, b, d, ws, stream);
        PS_CUDA(cudaEventRecord(end[i], stream));
    }
    PS_CUDA(cudaStreamSynchronize(stream));
    std::vector<double> seconds;
    for (std::size_t i = 0; i < start.size(); ++i) {
        float ms = 0;
        PS_CUDA(cudaEventElapsedTime(&ms, start[i], end[i]));
        seconds.push_back(double(ms) * 1e-3);
        (void)cudaEventDestroy(start[i]);
        (void)cudaEventDestroy(end[i]);
    }
    return median(seconds);
}
} // namespace

GemmPlan gemmPlan(bool quick, const std::vector<GemmShape>& extra)
{
    GemmPlan p;
    const std::vector<std::int64_t> squares = quick ? std::vector<std::int64_t> { 1024, 2048, 4096, 8192 }
                                                    : std::vector<std::int64_t> { 512, 1024, 2048, 4096, 8192, 16384 };
    for (const std::int64_t n : squares) p.shapes.push_back({ n, n, n });
    for (const GemmShape& s : extra)
        if (s.m > 0 && s.n > 0 && s.k > 0 && std::find(p.shapes.begin(), p.shapes.end(), s) == p.shapes.end())
            p.shapes.push_back(s);
    p.warmup = quick ? 5 : 10;
    p.iterations = quick ? 20 : 50;
    p.spinUpSeconds = quick ? 0.2 : 0.5;
    return p;
}

std::vector<GemmSample> measureGemm(int device, const GemmPlan& plan, double p0, double p1)
{
    std::vector<GemmSample> out;
    if (plan.shapes.empty()) return out;
    PS_CUDA(cudaSetDevice(device));
    cudaDeviceProp prop {};
    PS_CUDA(cudaGetDeviceProperties(&prop, device));
    const bool fp8 = prop.major * 10 + prop.minor >= 89;
    if (!fp8) note("GEMM: no fp8 on sm_" + std::to_string(prop.major * 10 + prop.minor) + " (needs sm_89 or later)");

    // Buffers big enough for every shape's A, B and D; the spin-up runs the shape with the most FLOPs.
    std::size_t maxElems = 0;
    GemmShape biggest = plan.shapes.front();
    for (const GemmShape& g : plan.shapes) {
        maxElems = std::max({ maxElems, std::size_t(g.m) * std::size_t(g.k), std::size_t(g.k) * std::size_t(g.n),
            std::size_t(g.m) * std::size_t(g.n) });
        if (double(g.m) * double(g.n) * double(g.k) > double(biggest.m) * double(biggest.n) * double(biggest.k)) biggest = g;
    }
    std::mt19937 rng(12345);
    Buffers buf;
    buf.a = DeviceBuffer(device, maxElems * 2);
    buf.b = DeviceBuffer(device, maxElems * 2);
    buf.d = DeviceBuffer(device, maxElems * 2);
    buf.workspace = DeviceBuffer(device, kWorkspaceBytes);
    fillRandom(buf.a.get(), buf.a.size(), bf16Pattern(rng, std::size_t(1) << 20));
    fillRandom(buf.b.get(), buf.b.size(), bf16Pattern(rng, std::size_t(1) << 20));
    if (fp8) {
        buf.a8 = DeviceBuffer(device, maxElems);
        buf.b8 = DeviceBuffer(device, maxElems);
        fillRandom(buf.a8.get(), buf.a8.size(), fp8Pattern(rng, std::size_t(1) << 21));
        fillRandom(buf.b8.get(), buf.b8.size(), fp8Pattern(rng, std::size_t(1) << 21));
    }

    cublasLtHandle_t handle = nullptr;
    PS_CUBLAS(cublasLtCreate(&handle));
    cudaStream_t stream = nullptr;
    PS_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    // Spin-up: the largest bf16 shape for spinUpSeconds, so that clocks are up before the first sample.
    {
        Matmul mm;
        prepare(mm, handle, biggest, false);
        if (mm.ok && plan.spinUpSeconds > 0) {
            const double t = timeMedian(handle, mm, buf.a.get(), buf.b.get(), buf.d.get(), buf.workspace, stream, 1, 1);
            const int reps = t > 0 ? int(std::min(10000.0, std::ceil(plan.spinUpSeconds / t))) : 1;
            for (int i = 0; i < reps; ++i) run(handle, mm, buf.a.get(), buf.b.get(), buf.d.get(), buf.workspace, stream);
            PS_CUDA(cudaStreamSynchronize(stream));
        }
    }

    const std::vector<std::string> dtypes = fp8 ? std::vector<std::string> { "bf16", "fp8" } : std::vector<std::string> { "bf16" };
    const double steps = double(dtypes.size() * plan.shapes.size());
    int step = 0;
    for (const std::string& dtype : dtypes) {
        const bool is8 = dtype == "fp8";
        for (const GemmShape& g : plan.shapes) {
            const std::string name = std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k);
            progress(p0 + (p1 - p0) * step / steps, "GEMM " + dtype + " " + name);
            ++step;
            Matmul mm;
            prepare(mm, handle, g, is8);
            if (!mm.ok) {
                note("GEMM " + dtype + " " + name + ": cuBLASLt has no algorithm, skipped");
                continue;
            }
            const void* a = is8 ? buf.a8.get() : buf.a.get();
            const void* b = is8 ? buf.b8.get() : buf.b.get();
            const double t = timeMedian(handle, mm, a, b, buf.d.get(), buf.workspace, stream, plan.warmup, plan.iterations);
            GemmSample s;
            s.m = g.m;
            s.n = g.n;
            s.k = g.k;
            s.dtype = dtype;
            s.seconds = t;
            s.tflops = t > 0 ? 2.0 * double(g.m) * double(g.n) * double(g.k) / t / 1e12 : 0.0;
            out.push_back(s);
        }
    }
    (void)cudaStreamDestroy(stream);
    cublasLtDestroy(handle);
    return out;
}

} // namespace planscope::profile
