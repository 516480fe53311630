// ozzbench: sampling speed of ozz-animation on one skeleton + animation.
//
//   ozzbench SKELETON.ozz ANIMATION.ozz LABEL IMPL [--dump FILE.csv]
//
// Prints one "RESULT ..." line per measure (thread CPU time and wall time per
// op, medians over REPS repetitions) and "INFO ..." lines with sizes.
// With --dump it also writes the sampled local transforms (glTF frame) at
// the times listed in the Go program's convention (k * duration / 1000,
// k = 0..1000, and every 1/30 s frame) and exits.
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ozz/animation/runtime/animation.h"
#include "ozz/animation/runtime/local_to_model_job.h"
#include "ozz/animation/runtime/sampling_job.h"
#include "ozz/animation/runtime/skeleton.h"
#include "ozz/base/io/archive.h"
#include "ozz/base/io/stream.h"
#include "ozz/base/maths/simd_math.h"
#include "ozz/base/maths/soa_transform.h"
#include "ozz/base/memory/allocator.h"

// Counting allocator: forwards to ozz's default one, records requested bytes.
class CountingAllocator : public ozz::memory::Allocator {
 public:
  explicit CountingAllocator(ozz::memory::Allocator* _next) : next_(_next) {}
  void* Allocate(size_t _size, size_t _alignment) override {
    bytes += _size;
    count++;
    return next_->Allocate(_size, _alignment);
  }
  void Deallocate(void* _block) override { next_->Deallocate(_block); }
  size_t bytes = 0;
  size_t count = 0;

 private:
  ozz::memory::Allocator* next_;
};

static double now_cpu() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}
static double now_wall() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

// xorshift32, the same generator as the Go program: floats in [0, 1).
struct Rng {
  uint32_t s;
  explicit Rng(uint32_t seed) : s(seed) {}
  float next() {
    s ^= s << 13;
    s ^= s >> 17;
    s ^= s << 5;
    return static_cast<float>(s >> 8) * (1.0f / 16777216.0f);
  }
};

static volatile float g_sink;

// Runs body(n) (n ops) in REPS repetitions of about target_ns CPU each and
// prints the median (and min, max) CPU and wall ns per op.
static void measure(const char* impl, const char* label, const char* kase,
                    const char* space, int n_chars, int joints,
                    const std::function<void(long)>& body) {
  const double target_ns = 100e6;
  const int reps = 5;
  // Calibrate.
  long iters = 1;
  for (;;) {
    double c0 = now_cpu();
    body(iters);
    double c = now_cpu() - c0;
    if (c > 20e6) {
      iters = std::max(1L, static_cast<long>(iters * target_ns / c));
      break;
    }
    iters *= 4;
  }
  std::vector<double> cpu, wall;
  for (int r = 0; r < reps; ++r) {
    double c0 = now_cpu(), w0 = now_wall();
    body(iters);
    double c1 = now_cpu(), w1 = now_wall();
    cpu.push_back((c1 - c0) / iters);
    wall.push_back((w1 - w0) / iters);
  }
  std::vector<double> sc = cpu, sw = wall;
  std::sort(sc.begin(), sc.end());
  std::sort(sw.begin(), sw.end());
  printf(
      "RESULT impl=%s clip=%s case=%s space=%s chars=%d joints=%d iters=%ld "
      "cpu_ns_op=%.1f cpu_min=%.1f cpu_max=%.1f wall_ns_op=%.1f\n",
      impl, label, kase, space, n_chars, joints, iters, sc[reps / 2], sc[0],
      sc[reps - 1], sw[reps / 2]);
  fflush(stdout);
}

// count_loop runs body n times; callgrind counts instructions inside it.
__attribute__((noinline)) static void count_loop(long n, const std::function<void()>& body) {
  for (long i = 0; i < n; ++i) body();
}

template <typename T>
static bool Load(const char* path, T* obj) {
  ozz::io::File file(path, "rb");
  if (!file.opened()) return false;
  ozz::io::IArchive archive(&file);
  if (!archive.TestTag<T>()) return false;
  archive >> *obj;
  return true;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: ozzbench SKEL ANIM LABEL IMPL [--dump F]\n");
    return 2;
  }
  const char* label = argv[3];
  const char* impl = argv[4];
  const char* dump = nullptr;
  bool quick = false;
  long count = 0;
  const char* what = "local";
  for (int i = 5; i < argc; ++i) {
    if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump = argv[++i];
    if (!strcmp(argv[i], "--quick")) quick = true;
    if (!strcmp(argv[i], "--count") && i + 1 < argc) count = atol(argv[++i]);
    if (!strcmp(argv[i], "--what") && i + 1 < argc) what = argv[++i];
  }

  CountingAllocator counter(ozz::memory::default_allocator());
  ozz::memory::SetDefaulAllocator(&counter);

  ozz::animation::Skeleton skeleton;
  ozz::animation::Animation animation;
  if (!Load(argv[1], &skeleton) || !Load(argv[2], &animation)) {
    fprintf(stderr, "cannot load %s / %s\n", argv[1], argv[2]);
    return 1;
  }
  const int joints = skeleton.num_joints();
  const int soa = skeleton.num_soa_joints();
  const float duration = animation.duration();

  // Context size: one Context object plus its single heap allocation.
  size_t b0 = counter.bytes, n0 = counter.count;
  auto* probe = new ozz::animation::SamplingJob::Context(joints);
  size_t ctx_heap = counter.bytes - b0, ctx_allocs = counter.count - n0;
  delete probe;
  printf(
      "INFO impl=%s clip=%s joints=%d soa_joints=%d tracks=%d duration=%.6f "
      "animation_bytes=%zu skeleton_joints=%d context_object_bytes=%zu "
      "context_heap_bytes=%zu context_allocs=%zu soa_transform_bytes=%zu "
      "float4x4_bytes=%zu timepoints=%zu tkeys=%zu rkeys=%zu skeys=%zu\n",
      impl, label, joints, soa, animation.num_tracks(), duration,
      animation.size(), joints, sizeof(ozz::animation::SamplingJob::Context),
      ctx_heap, ctx_allocs, sizeof(ozz::math::SoaTransform),
      sizeof(ozz::math::Float4x4), animation.timepoints().size(),
      animation.translations_values().size(),
      animation.rotations_values().size(), animation.scales_values().size());
  fflush(stdout);

  std::vector<ozz::math::SoaTransform> locals(soa);
  std::vector<ozz::math::Float4x4> models(joints);

  ozz::animation::SamplingJob::Context context(joints);
  ozz::animation::SamplingJob sjob;
  sjob.animation = &animation;
  sjob.context = &context;
  sjob.output = ozz::make_span(locals);
  ozz::animation::LocalToModelJob ljob;
  ljob.skeleton = &skeleton;
  ljob.input = ozz::make_span(locals);
  ljob.output = ozz::make_span(models);

  if (dump) {
    FILE* f = fopen(dump, "w");
    fprintf(f, "# duration %.9g joints %d\n", duration, joints);
    auto names = skeleton.joint_names();
    auto parents = skeleton.joint_parents();
    for (int j = 0; j < joints; ++j)
      fprintf(f, "joint,%d,%d,%s\n", j, parents[j], names[j]);
    auto emit = [&](const char* kind, float t) {
      float r = t / duration;
      sjob.ratio = r;
      if (!sjob.Run()) abort();
      for (int j = 0; j < joints; ++j) {
        const ozz::math::SoaTransform& s = locals[j / 4];
        int l = j % 4;
        float tx[4], ty[4], tz[4], qx[4], qy[4], qz[4], qw[4], sx[4], sy[4],
            sz[4];
        ozz::math::StorePtrU(s.translation.x, tx);
        ozz::math::StorePtrU(s.translation.y, ty);
        ozz::math::StorePtrU(s.translation.z, tz);
        ozz::math::StorePtrU(s.rotation.x, qx);
        ozz::math::StorePtrU(s.rotation.y, qy);
        ozz::math::StorePtrU(s.rotation.z, qz);
        ozz::math::StorePtrU(s.rotation.w, qw);
        ozz::math::StorePtrU(s.scale.x, sx);
        ozz::math::StorePtrU(s.scale.y, sy);
        ozz::math::StorePtrU(s.scale.z, sz);
        fprintf(f, "%s,%.9g,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n",
                kind, t, j, tx[l], ty[l], tz[l], qx[l], qy[l], qz[l], qw[l],
                sx[l], sy[l], sz[l]);
      }
    };
    // Uniform times over the clip, then every 1/30 s frame.
    for (int k = 0; k <= 1000; ++k) emit("u", duration * k / 1000.0f);
    for (int k = 0;; ++k) {
      float t = k / 30.0f;
      if (t > duration + 1e-6f) break;
      emit("f", std::min(t, duration));
    }
    fclose(f);
    return 0;
  }

  float sink = 0;
  const float dt = 1.0f / 60.0f;

  if (count > 0) {
    // For callgrind (--toggle-collect=count_loop*): count forward ticks of
    // sampling ("local") or of local-to-model alone ("model").
    bool model = !strcmp(what, "model");
    float t = 0;
    sjob.ratio = 0.5f;
    sjob.Run();
    count_loop(count, [&]() {
      if (model) {
        ljob.Run();
      } else {
        sjob.ratio = t / duration;
        sjob.Run();
        t += dt;
        if (t >= duration) t = std::fmod(t, duration);
      }
    });
    printf("%g\n", ozz::math::GetX(locals[0].translation.x) + ozz::math::GetX(models[joints - 1].cols[3]));
    return 0;
  }

  // (a) forward playback at 60 Hz, looping.
  for (int model = 0; model < 2; ++model) {
    float t = 0;
    context.Invalidate();
    measure(impl, label, "forward", model ? "local+model" : "local", 1, joints,
            [&](long n) {
              for (long i = 0; i < n; ++i) {
                sjob.ratio = t / duration;
                sjob.Run();
                if (model) ljob.Run();
                t += dt;
                if (t >= duration) t = std::fmod(t, duration);
              }
              sink += ozz::math::GetX(locals[0].translation.x);
            });
  }

  // (b) random seeks from a table of 4096 random times.
  std::vector<float> ratios(4096);
  {
    Rng rng(1);
    for (auto& r : ratios) r = rng.next();
  }
  for (int model = 0; model < 2; ++model) {
    context.Invalidate();
    long k = 0;
    measure(impl, label, "seek", model ? "local+model" : "local", 1, joints,
            [&](long n) {
              for (long i = 0; i < n; ++i) {
                sjob.ratio = ratios[k++ & 4095];
                sjob.Run();
                if (model) ljob.Run();
              }
              sink += ozz::math::GetX(locals[0].translation.x);
            });
  }

  // (c) crowds: one Context per character, one shared output buffer.
  const int crowd_sizes[] = {100, 1000, 4000};
  for (int N : crowd_sizes) {
    if (quick && N > 100) break;
    std::vector<ozz::animation::SamplingJob::Context*> ctxs(N);
    std::vector<float> times(N);
    Rng rng(2);
    size_t before = counter.bytes;
    for (int i = 0; i < N; ++i) {
      ctxs[i] = new ozz::animation::SamplingJob::Context(joints);
      times[i] = rng.next() * duration;
    }
    size_t heap = counter.bytes - before;
    printf("INFO impl=%s clip=%s crowd=%d contexts_heap_bytes=%zu per_char=%.1f\n",
           impl, label, N, heap, double(heap) / N);
    for (int model = 0; model < 2; ++model) {
      measure(impl, label, "crowd", model ? "local+model" : "local", N, joints,
              [&](long n) {
                for (long i = 0; i < n; ++i) {
                  for (int c = 0; c < N; ++c) {
                    ozz::animation::SamplingJob job;
                    job.animation = &animation;
                    job.context = ctxs[c];
                    job.output = ozz::make_span(locals);
                    job.ratio = times[c] / duration;
                    job.Run();
                    if (model) ljob.Run();
                    float t = times[c] + dt;
                    if (t >= duration) t = std::fmod(t, duration);
                    times[c] = t;
                  }
                }
                sink += ozz::math::GetX(locals[0].translation.x);
              });
    }
    for (auto* c : ctxs) delete c;
  }
  g_sink = sink;
  return 0;
}
