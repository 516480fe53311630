// gldec decodes compressed texture blocks with the OpenGL driver (Mesa's
// llvmpipe, an independent decoder of ETC2, EAC and ASTC), for
// generate.sh. usage: gldec GLFORMAT(hex) W H in.blocks out KIND, KIND
// u8 (RGBA, a byte a channel, rounded), r11 (R and G as little-endian
// int16, round(value*2047)) or r11s (round(value*1023)).
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc < 7 && !(argc > 1 && strcmp(argv[1], "ext") == 0)) { fprintf(stderr, "usage\n"); return 2; }
  PFNEGLGETPLATFORMDISPLAYEXTPROC gpd = (void*)eglGetProcAddress("eglGetPlatformDisplayEXT");
  EGLDisplay d = gpd(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
  if (!eglInitialize(d, NULL, NULL)) { fprintf(stderr, "egl init\n"); return 1; }
  eglBindAPI(EGL_OPENGL_API);
  EGLint ca[] = {EGL_NONE};
  EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ca);
  if (!c || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) { fprintf(stderr, "ctx\n"); return 1; }
  if (strcmp(argv[1], "ext") == 0) { printf("%s\n%s\n", glGetString(GL_RENDERER), glGetString(GL_EXTENSIONS)); return 0; }
  unsigned fmt = strtoul(argv[1], 0, 16); int w = atoi(argv[2]), h = atoi(argv[3]);
  FILE *f = fopen(argv[4], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  void *buf = malloc(n); fread(buf, 1, n, f); fclose(f);
  GLuint t; glGenTextures(1, &t); glBindTexture(GL_TEXTURE_2D, t);
  glCompressedTexImage2D(GL_TEXTURE_2D, 0, fmt, w, h, 0, n, buf);
  GLenum e = glGetError(); if (e) { fprintf(stderr, "upload error 0x%x\n", e); return 1; }
  float *out = malloc((size_t)w*h*16);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_FLOAT, out);
  e = glGetError(); if (e) { fprintf(stderr, "read error 0x%x\n", e); return 1; }
  f = fopen(argv[5], "wb");
  for (size_t i = 0; i < (size_t)w*h; i++) {
    if (strcmp(argv[6], "u8") == 0) {
      for (int c = 0; c < 4; c++) { float v = out[4*i+c]; fputc((int)(v * 255.0f + 0.5f), f); }
    } else {
      float s = strcmp(argv[6], "r11s") == 0 ? 1023.0f : 2047.0f;
      for (int c = 0; c < 2; c++) { float v = out[4*i+c] * s; short q = (short)(v < 0 ? v - 0.5f : v + 0.5f); fputc(q & 255, f); fputc((q >> 8) & 255, f); }
    }
  }
  fclose(f);
  return 0;
}
