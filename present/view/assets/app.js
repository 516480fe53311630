// mecanim view: lists the characters, clips and controllers the server was
// given, plays a clip's precomputed frames locally, or runs a controller on
// the server and draws the pose it returns. Plain JavaScript and WebGL 1,
// no libraries. Bones are drawn as present/render draws them: coloured by
// side (left blue, right red, centre dark grey), helpers thin and faint, no
// bone along the armature chain from joint 0 down to the root joint.
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const query = new URLSearchParams(location.search);
  const body = document.body;
  // The server's token, which every API request carries: it is in this
  // page's HTML, which no other site's page can read.
  const tokenMeta = document.querySelector('meta[name="mecanim-token"]');
  const token = tokenMeta ? tokenMeta.content : '';

  // ---- errors and status, written into the DOM for people and tests ----
  let errorCount = 0;
  function report(msg) {
    errorCount++;
    body.dataset.errors = String(errorCount);
    $('errors').textContent += msg + '\n';
    console.error(msg);
  }
  window.addEventListener('error', (e) => report('error: ' + (e.message || e)));
  window.addEventListener('unhandledrejection', (e) => report('error: ' + (e.reason && e.reason.message ? e.reason.message : e.reason)));
  function status(s, text) {
    body.dataset.status = s;
    $('status').textContent = text || '';
  }

  // ---- API ----
  async function getJSON(url) {
    const r = await fetch(url, { cache: 'no-store', headers: { 'X-Mecanim-Token': token } });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    return j;
  }
  async function postJSON(url, v) {
    const r = await fetch(url, {
      method: 'POST', cache: 'no-store',
      headers: { 'Content-Type': 'application/json', 'X-Mecanim-Token': token },
      body: JSON.stringify(v),
    });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    return j;
  }

  // ---- colours: present/render's palette (sheet.go), 0..1 ----
  const rgb = (r, g, b) => [r / 255, g / 255, b / 255];
  const COL = {
    background: rgb(252, 252, 250),
    ground: rgb(218, 218, 218),
    groundAxis: rgb(190, 190, 190),
    centre: rgb(70, 70, 82),
    left: rgb(40, 100, 220),
    right: rgb(215, 50, 50),
    helper: rgb(212, 212, 220),
    origin: rgb(0, 0, 0),
  };
  const darken = (c) => [c[0] * 0.75, c[1] * 0.75, c[2] * 0.75];
  function sideColour(s) { return s < 0 ? COL.left : s > 0 ? COL.right : COL.centre; }

  // ---- matrices (column-major, as WebGL wants them) ----
  function perspective(fovy, aspect, near, far) {
    const f = 1 / Math.tan(fovy / 2), nf = 1 / (near - far);
    return [f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) * nf, -1, 0, 0, 2 * far * near * nf, 0];
  }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function norm(a) { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; }
  function lookAt(eye, at, up) {
    const z = norm(sub(eye, at)), x = norm(cross(up, z)), y = cross(z, x);
    return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0, -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
  }
  function mul(a, b) {
    const o = new Array(16);
    for (let c = 0; c < 4; c++) {
      for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
        o[c * 4 + r] = s;
      }
    }
    return o;
  }
  const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  // rootMatrix is a root motion (Unity's frame: t, r as x, y, z, w) as a
  // model matrix in GL's frame (x mirrored on both sides).
  function rootMatrix(root) {
    if (!root) return IDENTITY;
    let [x, y, z, w] = root.r;
    const l = Math.hypot(x, y, z, w);
    if (!(l > 0)) { x = 0; y = 0; z = 0; w = 1; } else { x /= l; y /= l; z /= l; w /= l; }
    const m = [
      1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0,
      2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0,
      2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0,
      root.t[0], root.t[1], root.t[2], 1,
    ];
    // S m S with S = diag(-1, 1, 1): negate row 0 and column 0 (their
    // shared entry twice)
    for (let c = 0; c < 4; c++) m[c * 4] = -m[c * 4];
    for (let r = 0; r < 4; r++) m[r] = -m[r];
    return m;
  }
  function transformPoint(m, p) {
    return [m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12], m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
      m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]];
  }

  // ---- WebGL ----
  const canvas = $('view');
  const gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: false });
  let lineProg = null, lineBuf = null, L = {};
  let pointProg = null, pointBuf = null, P = {};
  let meshProg = null, mPos = -1, mNrm = -1, mUV = -1, mMVP = null, mColor = null, mHasTex = null, mUVST = null, mTex = null, uint32Indices = false;
  const textures = new Map(); // texture id -> {tex: WebGL texture once loaded}
  function compile(type, src) {
    const s = gl.createShader(type);
    gl.shaderSource(s, src);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error('shader: ' + gl.getShaderInfoLog(s));
    return s;
  }
  // link compiles and links a program of a vertex and a fragment shader
  // (what names it in an error).
  function link(what, vs, fs) {
    const p = gl.createProgram();
    gl.attachShader(p, compile(gl.VERTEX_SHADER, vs));
    gl.attachShader(p, compile(gl.FRAGMENT_SHADER, fs));
    gl.linkProgram(p);
    if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(what + ': ' + gl.getProgramInfoLog(p));
    return p;
  }
  function initGL() {
    if (!gl) {
      body.dataset.gl = 'none';
      report('WebGL is not available in this browser');
      return;
    }
    // Lines of any width (WebGL's own are one pixel): each segment is a
    // quad whose corners the vertex shader pushes apart on screen.
    lineProg = link('line program',
      'attribute vec3 a_pos; attribute vec3 a_other; attribute float a_side; attribute vec3 a_color;\n' +
      'uniform mat4 u_mvp; uniform vec2 u_half; varying vec3 v_color; uniform float u_width;\n' +
      'void main() {\n' +
      '  vec4 a = u_mvp * vec4(a_pos, 1.0); vec4 b = u_mvp * vec4(a_other, 1.0);\n' +
      '  vec2 d = (b.xy / b.w - a.xy / a.w) * u_half;\n' +
      '  float l = length(d);\n' +
      '  d = l > 1e-6 ? d / l : vec2(1.0, 0.0);\n' +
      '  a.xy += vec2(-d.y, d.x) * a_side * (0.5 * u_width) / u_half * a.w;\n' +
      '  v_color = a_color; gl_Position = a;\n' +
      '}',
      'precision mediump float; varying vec3 v_color;\n' +
      'void main() { gl_FragColor = vec4(v_color, 1.0); }');
    for (const k of ['a_pos', 'a_other', 'a_side', 'a_color']) L[k] = gl.getAttribLocation(lineProg, k);
    for (const k of ['u_mvp', 'u_half', 'u_width']) L[k] = gl.getUniformLocation(lineProg, k);
    lineBuf = gl.createBuffer();
    pointProg = link('point program',
      'attribute vec3 a_pos; attribute vec3 a_color; uniform mat4 u_mvp; uniform float u_size; varying vec3 v_color;\n' +
      'void main() { gl_Position = u_mvp * vec4(a_pos, 1.0); gl_PointSize = u_size; v_color = a_color; }',
      'precision mediump float; varying vec3 v_color;\n' +
      'void main() {\n' +
      '  if (length(gl_PointCoord - vec2(0.5)) > 0.5) discard;\n' +
      '  gl_FragColor = vec4(v_color, 1.0);\n' +
      '}');
    for (const k of ['a_pos', 'a_color']) P[k] = gl.getAttribLocation(pointProg, k);
    for (const k of ['u_mvp', 'u_size']) P[k] = gl.getUniformLocation(pointProg, k);
    pointBuf = gl.createBuffer();
    // Colours are linear (a material's base colour; a texture's texels
    // decoded from sRGB), lit, and encoded to sRGB for the screen.
    meshProg = link('mesh program',
      'attribute vec3 a_pos; attribute vec3 a_nrm; attribute vec2 a_uv; uniform mat4 u_mvp; varying vec3 v_nrm; varying vec2 v_uv;\n' +
      'void main() { v_nrm = a_nrm; v_uv = a_uv; gl_Position = u_mvp * vec4(a_pos, 1.0); }',
      'precision mediump float; uniform vec4 u_color; uniform sampler2D u_tex; uniform float u_hastex; uniform vec4 u_uvst;\n' +
      'varying vec3 v_nrm; varying vec2 v_uv;\n' +
      'void main() {\n' +
      '  vec4 base = u_color;\n' +
      '  if (u_hastex > 0.5) {\n' +
      '    vec2 t = fract(v_uv * u_uvst.xy + u_uvst.zw);\n' +
      '    vec4 tx = texture2D(u_tex, vec2(t.x, 1.0 - t.y));\n' +
      '    base = vec4(base.rgb * pow(tx.rgb, vec3(2.2)), base.a * tx.a);\n' +
      '  }\n' +
      '  if (base.a < 0.3) discard;\n' +
      '  float l = length(v_nrm) > 0.0 ? abs(dot(normalize(v_nrm), normalize(vec3(0.3, 0.8, 0.5)))) : 0.6;\n' +
      '  gl_FragColor = vec4(pow(base.rgb * (0.45 + 0.55 * l), vec3(1.0 / 2.2)), 1.0);\n' +
      '}');
    mPos = gl.getAttribLocation(meshProg, 'a_pos');
    mNrm = gl.getAttribLocation(meshProg, 'a_nrm');
    mUV = gl.getAttribLocation(meshProg, 'a_uv');
    mMVP = gl.getUniformLocation(meshProg, 'u_mvp');
    mColor = gl.getUniformLocation(meshProg, 'u_color');
    mHasTex = gl.getUniformLocation(meshProg, 'u_hastex');
    mUVST = gl.getUniformLocation(meshProg, 'u_uvst');
    mTex = gl.getUniformLocation(meshProg, 'u_tex');
    uint32Indices = !!gl.getExtension('OES_element_index_uint');
    body.dataset.gl = 'webgl';
  }

  // ---- segments and dots, built per frame ----
  // A segment list holds, per segment, six vertices of ten floats: this
  // end, the other end, which side of the line, colour.
  function segments(cap) { return { v: new Float32Array(cap * 60), n: 0 }; }
  function addSegment(sg, a, b, c) {
    if (sg.n * 60 + 60 > sg.v.length) {
      const v = new Float32Array(sg.v.length * 2 + 600);
      v.set(sg.v);
      sg.v = v;
    }
    const corners = [[a, b, 1], [a, b, -1], [b, a, -1], [a, b, -1], [b, a, 1], [b, a, -1]];
    let k = sg.n * 60;
    for (const [p, q, s] of corners) {
      sg.v[k++] = p[0]; sg.v[k++] = p[1]; sg.v[k++] = p[2];
      sg.v[k++] = q[0]; sg.v[k++] = q[1]; sg.v[k++] = q[2];
      sg.v[k++] = s; sg.v[k++] = c[0]; sg.v[k++] = c[1]; sg.v[k++] = c[2];
    }
    sg.n++;
  }
  function drawSegments(sg, mvp, width, w, h) {
    if (!sg.n) return;
    gl.useProgram(lineProg);
    gl.uniformMatrix4fv(L.u_mvp, false, mvp);
    gl.uniform2f(L.u_half, w / 2, h / 2);
    gl.uniform1f(L.u_width, width);
    gl.bindBuffer(gl.ARRAY_BUFFER, lineBuf);
    gl.bufferData(gl.ARRAY_BUFFER, sg.v.subarray(0, sg.n * 60), gl.DYNAMIC_DRAW);
    const attr = [['a_pos', 3, 0], ['a_other', 3, 12], ['a_side', 1, 24], ['a_color', 3, 28]];
    for (const [name, size, off] of attr) {
      gl.enableVertexAttribArray(L[name]);
      gl.vertexAttribPointer(L[name], size, gl.FLOAT, false, 40, off);
    }
    gl.drawArrays(gl.TRIANGLES, 0, sg.n * 6);
    for (const [name] of attr) gl.disableVertexAttribArray(L[name]);
  }
  function drawDots(v, n, mvp, size) {
    if (!n) return;
    gl.useProgram(pointProg);
    gl.uniformMatrix4fv(P.u_mvp, false, mvp);
    gl.uniform1f(P.u_size, size);
    gl.bindBuffer(gl.ARRAY_BUFFER, pointBuf);
    gl.bufferData(gl.ARRAY_BUFFER, v.subarray(0, n * 6), gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(P.a_pos);
    gl.vertexAttribPointer(P.a_pos, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(P.a_color);
    gl.vertexAttribPointer(P.a_color, 3, gl.FLOAT, false, 24, 12);
    gl.drawArrays(gl.POINTS, 0, n);
    gl.disableVertexAttribArray(P.a_pos);
    gl.disableVertexAttribArray(P.a_color);
  }

  // ---- how a skeleton is drawn (the server's Look) ----
  // lookOf says, per joint, whether a bone goes to its parent, whether it
  // is a helper, and its colour.
  function lookOf(info) {
    const n = info.parents.length;
    const helper = info.helpers && info.helpers.length === n ? info.helpers : new Array(n).fill(false);
    const sides = info.sides && info.sides.length === n ? info.sides : new Array(n).fill(0);
    const chain = new Array(n).fill(false); // the root joint and its ancestors
    for (let j = info.root; j >= 0 && j < n; j = info.parents[j]) chain[j] = true;
    const bone = [], colour = [];
    for (let j = 0; j < n; j++) {
      const p = info.parents[j];
      bone.push(p > 0 && !chain[j]);
      colour.push(helper[j] ? COL.helper : sideColour(sides[j]));
    }
    return { n, parents: info.parents, helper, bone, colour, dots: new Float32Array(n * 6) };
  }

  // ---- camera: orbit around the body, following it ----
  const FOV = Math.PI / 4;
  const cam = { yaw: 0.5, pitch: 0.25, dist: 3, target: [0, 1, 0], radius: 1, floor: 0, centre: null };
  // fitCamera frames a box (Unity's frame, the body's bounds) seen from
  // any side: its bounding sphere fills most of the view's height.
  function fitCamera(b) {
    if (!b) return;
    const c = [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2];
    const r = Math.max(0.05, Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]) / 2);
    cam.centre = [-c[0], c[1], c[2]]; // Unity's x mirrored into GL's right-handed frame
    cam.target = cam.centre.slice();
    cam.radius = r;
    cam.dist = r / Math.sin(FOV / 2) * 1.05;
    cam.floor = b.min[1] <= 0 && b.max[1] >= 0 ? 0 : b.min[1];
  }
  // follow moves the camera's target towards where the model matrix puts
  // the body's centre (smoothly, over about a tenth of a second).
  function follow(model, dt) {
    if (!cam.centre) return;
    const want = transformPoint(model, cam.centre);
    const a = dt > 0 ? 1 - Math.exp(-dt * 10) : 1;
    for (let k = 0; k < 3; k++) cam.target[k] += (want[k] - cam.target[k]) * a;
  }
  let drag = null;
  canvas.addEventListener('pointerdown', (e) => { drag = { x: e.clientX, y: e.clientY }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener('pointerup', () => { drag = null; });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) return;
    cam.yaw -= (e.clientX - drag.x) * 0.01;
    cam.pitch = Math.max(-1.5, Math.min(1.5, cam.pitch + (e.clientY - drag.y) * 0.01));
    drag = { x: e.clientX, y: e.clientY };
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    cam.dist *= Math.exp(e.deltaY * 0.001);
  }, { passive: false });

  // ---- drawing ----
  const grid = segments(64), bones = segments(256), helpers = segments(256);
  // drawn is what the last frame drew with, for tests: the matrices that
  // took the world (vp) and the character's joints (mvp: with the root
  // motion that carries it) from GL's frame (Unity's with x negated) to
  // clip space, and the canvas size in pixels.
  const drawn = { vp: null, mvp: null, width: 0, height: 0 };
  window.mecanimView = {
    drawn: () => ({ vp: drawn.vp && Array.from(drawn.vp), mvp: drawn.mvp && Array.from(drawn.mvp), width: drawn.width, height: drawn.height }),
  };

  function draw(pos, look, meshes, model) {
    if (!gl || !lineProg) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.floor(canvas.clientWidth * dpr)), h = Math.max(1, Math.floor(canvas.clientHeight * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    gl.viewport(0, 0, w, h);
    gl.clearColor(COL.background[0], COL.background[1], COL.background[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    const t = cam.target, cp = Math.cos(cam.pitch);
    const eye = [t[0] + cam.dist * cp * Math.sin(cam.yaw), t[1] + cam.dist * Math.sin(cam.pitch), t[2] + cam.dist * cp * Math.cos(cam.yaw)];
    const near = Math.max(cam.dist * 0.01, 1e-4), far = cam.dist * 10 + cam.radius * 4;
    const vp = mul(perspective(FOV, w / h, near, far), lookAt(eye, t, [0, 1, 0]));
    const mvp = new Float32Array(model ? mul(vp, model) : vp);

    // floor grid around the target
    gl.disable(gl.DEPTH_TEST);
    const step = Math.pow(10, Math.floor(Math.log10(cam.radius * 2))) / 2, lines = 20;
    const gx = Math.round(t[0] / step) * step, gz = Math.round(t[2] / step) * step, half = step * lines / 2;
    grid.n = 0;
    for (let i = 0; i <= lines; i++) {
      const o = -half + i * step, y = cam.floor;
      const cx = Math.abs(gx + o) < step / 2 ? COL.groundAxis : COL.ground;
      const cz = Math.abs(gz + o) < step / 2 ? COL.groundAxis : COL.ground;
      addSegment(grid, [gx + o, y, gz - half], [gx + o, y, gz + half], cx);
      addSegment(grid, [gx - half, y, gz + o], [gx + half, y, gz + o], cz);
    }
    drawSegments(grid, new Float32Array(vp), dpr, w, h);
    drawn.vp = vp; drawn.mvp = pos && look ? mvp : null; drawn.width = w; drawn.height = h;
    if (!pos || !look) return;
    if (meshes && meshes.length && $('showmesh').checked) {
      drawMeshes(meshes, mvp);
      gl.disable(gl.DEPTH_TEST); // bones show through the skin
    }
    if (!$('showbones').checked) return;

    // bones: helpers first (thin, faint), then the body, then its joints
    const n = look.n, at = (j) => [-pos[j * 3], pos[j * 3 + 1], pos[j * 3 + 2]];
    bones.n = 0;
    helpers.n = 0;
    for (let j = 0; j < n; j++) {
      if (!look.bone[j]) continue;
      addSegment(look.helper[j] ? helpers : bones, at(look.parents[j]), at(j), look.colour[j]);
    }
    const width = Math.max(2, Math.round(h / 260));
    drawSegments(helpers, mvp, dpr, w, h);
    drawSegments(bones, mvp, width, w, h);
    let k = 0, d = 0;
    for (let j = 1; j < n; j++) {
      if (look.helper[j]) continue;
      const c = darken(look.colour[j]);
      look.dots[k++] = -pos[j * 3]; look.dots[k++] = pos[j * 3 + 1]; look.dots[k++] = pos[j * 3 + 2];
      look.dots[k++] = c[0]; look.dots[k++] = c[1]; look.dots[k++] = c[2];
      d++;
    }
    drawDots(look.dots, d, mvp, width * 2.2);
    // joint 0, which places the character: a black dot
    look.dots[0] = -pos[0]; look.dots[1] = pos[1]; look.dots[2] = pos[2];
    look.dots[3] = COL.origin[0]; look.dots[4] = COL.origin[1]; look.dots[5] = COL.origin[2];
    drawDots(look.dots, 1, mvp, width * 1.5);
  }

  // ---- skinned and rigid meshes, skinned on the CPU ----
  // prepareMeshes makes typed arrays and GL buffers for a frames answer's
  // meshes (those whose indices WebGL can take).
  function prepareMeshes(f) {
    const out = [];
    if (!gl || !meshProg || !f.meshes) return out;
    let slot = 0; // the first morph's place in a frame's morph weights
    for (const m of f.meshes) {
      const n = m.positions.length / 3;
      const morphs = (m.morphs || []).map(mo => ({ full: mo.full || 100, weight: mo.weight || 0, vi: new Uint32Array(mo.vertices), d: new Float32Array(mo.deltas) }));
      const first = slot;
      slot += morphs.length;
      if (n >= 65536 && !uint32Indices) continue;
      const mm = {
        morphs: morphs, slot: first, mpos: morphs.length ? new Float32Array(n * 3) : null,
        groups: m.groups && m.groups.length ? m.groups : [{ start: 0, count: m.indices.length, material: null }],
        uvbuf: null,
        name: m.name, n: n, joint: m.joint,
        pos: new Float32Array(m.positions),
        nrm: m.normals ? new Float32Array(m.normals) : null,
        bones: m.bones || null,
        bind: m.bind_poses ? new Float32Array(m.bind_poses) : null,
        bi: m.bone_indices ? new Uint16Array(m.bone_indices) : null,
        bw: m.bone_weights ? new Float32Array(m.bone_weights) : null,
        count: m.indices.length,
        type: n >= 65536 ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT,
        ibuf: gl.createBuffer(), vbuf: gl.createBuffer(), nbuf: gl.createBuffer(),
      };
      mm.out = new Float32Array(n * 3);
      mm.outN = new Float32Array(n * 3);
      if (m.uvs) {
        mm.uvbuf = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, mm.uvbuf);
        gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(m.uvs), gl.STATIC_DRAW);
      }
      for (const g of mm.groups) if (g.material && g.material.texture >= 0) loadTexture(g.material.texture);
      mm.skin = new Float32Array(16 * (mm.bones ? mm.bones.length : 1));
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, mm.ibuf);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, n >= 65536 ? new Uint32Array(m.indices) : new Uint16Array(m.indices), gl.STATIC_DRAW);
      out.push(mm);
    }
    return out;
  }

  // loadTexture fetches a base colour texture once, for every mesh that
  // uses it; groups draw untextured until it is there.
  function loadTexture(id) {
    if (textures.has(id)) return;
    const t = { tex: null };
    textures.set(id, t);
    fetch('api/texture/' + id, { headers: { 'X-Mecanim-Token': token } })
      .then(r => { if (!r.ok) throw new Error(r.statusText); return r.blob(); })
      .then(b => createImageBitmap(b))
      .then(img => {
        const tex = gl.createTexture();
        gl.bindTexture(gl.TEXTURE_2D, tex);
        gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);
        gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, img);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
        gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
        t.tex = tex;
        body.dataset.textures = String([...textures.values()].filter(x => x.tex).length);
      })
      .catch(e => status('error', 'texture ' + id + ': ' + e.message));
  }

  // jointMatrix writes joint j's model matrix (translation, rotation,
  // scale), mirrored on x into GL's frame, column-major into o at k.
  function jointMatrix(j, P, R, S, o, k) {
    const x = R[j * 4], y = R[j * 4 + 1], z = R[j * 4 + 2], w = R[j * 4 + 3];
    const sx = S[j * 3], sy = S[j * 3 + 1], sz = S[j * 3 + 2];
    const m = [
      (1 - 2 * (y * y + z * z)) * sx, (2 * (x * y + z * w)) * sx, (2 * (x * z - y * w)) * sx, 0,
      (2 * (x * y - z * w)) * sy, (1 - 2 * (x * x + z * z)) * sy, (2 * (y * z + x * w)) * sy, 0,
      (2 * (x * z + y * w)) * sz, (2 * (y * z - x * w)) * sz, (1 - 2 * (x * x + y * y)) * sz, 0,
      P[j * 3], P[j * 3 + 1], P[j * 3 + 2], 1,
    ];
    for (let c = 0; c < 4; c++) m[c * 4] = -m[c * 4];
    for (let i = 0; i < 16; i++) o[k + i] = m[i];
  }
  const MIRROR = [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

  function drawMeshes(meshes, mvp) {
    const P = st.pose, R = st.rot, S = st.scl;
    if (!P || !R || !S) return;
    const jm = new Float32Array(16);
    gl.useProgram(meshProg);
    gl.enable(gl.DEPTH_TEST);
    gl.uniformMatrix4fv(mMVP, false, mvp);
    gl.uniform1i(mTex, 0);
    gl.activeTexture(gl.TEXTURE0);
    const W = st.mode === 'clip' ? st.mw : null;
    for (const m of meshes) {
      // one matrix per bone: joint model matrix times bind pose
      if (m.bones) {
        for (let b = 0; b < m.bones.length; b++) {
          const j = m.bones[b];
          let s;
          if (j >= 0) {
            jointMatrix(j, P, R, S, jm, 0);
            s = mul(jm, m.bind.subarray(b * 16, b * 16 + 16));
          } else {
            s = MIRROR;
          }
          for (let i = 0; i < 16; i++) m.skin[b * 16 + i] = s[i];
        }
      } else if (m.joint >= 0) {
        jointMatrix(m.joint, P, R, S, m.skin, 0);
      } else {
        m.skin.set(MIRROR);
      }
      // blend shapes: each weight w moves its vertices by w/full of the offsets
      let pos = m.pos;
      if (m.mpos) {
        let any = false;
        for (let k = 0; k < m.morphs.length && !any; k++) any = (W ? W[m.slot + k] : m.morphs[k].weight) !== 0;
        if (any) {
          pos = m.mpos;
          pos.set(m.pos);
          for (let k = 0; k < m.morphs.length; k++) {
            const mo = m.morphs[k], w = (W ? W[m.slot + k] : mo.weight) / mo.full;
            if (!w) continue;
            for (let i = 0; i < mo.vi.length; i++) {
              const v = mo.vi[i] * 3;
              pos[v] += w * mo.d[i * 3]; pos[v + 1] += w * mo.d[i * 3 + 1]; pos[v + 2] += w * mo.d[i * 3 + 2];
            }
          }
        }
      }
      const sk = m.skin, nrm = m.nrm, out = m.out, outN = m.outN;
      for (let v = 0; v < m.n; v++) {
        const px = pos[v * 3], py = pos[v * 3 + 1], pz = pos[v * 3 + 2];
        let nx = 0, ny = 0, nz = 0;
        if (nrm) { nx = nrm[v * 3]; ny = nrm[v * 3 + 1]; nz = nrm[v * 3 + 2]; }
        let ox = 0, oy = 0, oz = 0, qx = 0, qy = 0, qz = 0;
        const k4 = m.bones ? 4 : 1;
        for (let k = 0; k < k4; k++) {
          let wgt = 1, o = 0;
          if (m.bones) {
            wgt = m.bw[v * 4 + k];
            if (!(wgt > 0)) continue;
            o = m.bi[v * 4 + k] * 16;
          }
          ox += wgt * (sk[o] * px + sk[o + 4] * py + sk[o + 8] * pz + sk[o + 12]);
          oy += wgt * (sk[o + 1] * px + sk[o + 5] * py + sk[o + 9] * pz + sk[o + 13]);
          oz += wgt * (sk[o + 2] * px + sk[o + 6] * py + sk[o + 10] * pz + sk[o + 14]);
          qx += wgt * (sk[o] * nx + sk[o + 4] * ny + sk[o + 8] * nz);
          qy += wgt * (sk[o + 1] * nx + sk[o + 5] * ny + sk[o + 9] * nz);
          qz += wgt * (sk[o + 2] * nx + sk[o + 6] * ny + sk[o + 10] * nz);
        }
        out[v * 3] = ox; out[v * 3 + 1] = oy; out[v * 3 + 2] = oz;
        outN[v * 3] = qx; outN[v * 3 + 1] = qy; outN[v * 3 + 2] = qz;
      }
      gl.bindBuffer(gl.ARRAY_BUFFER, m.vbuf);
      gl.bufferData(gl.ARRAY_BUFFER, out, gl.DYNAMIC_DRAW);
      gl.enableVertexAttribArray(mPos);
      gl.vertexAttribPointer(mPos, 3, gl.FLOAT, false, 0, 0);
      gl.bindBuffer(gl.ARRAY_BUFFER, m.nbuf);
      gl.bufferData(gl.ARRAY_BUFFER, outN, gl.DYNAMIC_DRAW);
      gl.enableVertexAttribArray(mNrm);
      gl.vertexAttribPointer(mNrm, 3, gl.FLOAT, false, 0, 0);
      if (m.uvbuf) {
        gl.bindBuffer(gl.ARRAY_BUFFER, m.uvbuf);
        gl.enableVertexAttribArray(mUV);
        gl.vertexAttribPointer(mUV, 2, gl.FLOAT, false, 0, 0);
      } else {
        gl.disableVertexAttribArray(mUV);
        gl.vertexAttrib2f(mUV, 0, 0);
      }
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, m.ibuf);
      const size = m.type === gl.UNSIGNED_INT ? 4 : 2;
      for (const g of m.groups) {
        const mat = g.material;
        if (mat && mat.found) gl.uniform4f(mColor, mat.color[0], mat.color[1], mat.color[2], mat.color[3]);
        else gl.uniform4f(mColor, 0.34, 0.41, 0.52, 1); // grey-blue (linear): no material
        const t = mat && mat.texture >= 0 && m.uvbuf ? textures.get(mat.texture) : null;
        if (t && t.tex) {
          gl.bindTexture(gl.TEXTURE_2D, t.tex);
          gl.uniform1f(mHasTex, 1);
          gl.uniform4f(mUVST, mat.scale[0], mat.scale[1], mat.offset[0], mat.offset[1]);
        } else {
          gl.uniform1f(mHasTex, 0);
        }
        gl.drawElements(gl.TRIANGLES, g.count, m.type, g.start * size);
      }
    }
    gl.disableVertexAttribArray(mNrm);
    gl.disableVertexAttribArray(mUV);
  }

  // ---- playback state ----
  const st = {
    scene: null,
    mode: null,      // 'clip' or 'controller'
    clip: null,      // frames of the selected clip
    clipRig: -1,     // the character it was asked on (-1: the binding's choice)
    meshes: [],      // prepared meshes of the selected clip or controller
    rot: null,       // joint rotations and scales being drawn (with meshes)
    scl: null,
    ctl: null,       // info of the selected controller
    look: null,      // how the skeleton is drawn (lookOf)
    pose: null,      // Float32Array of joint positions being drawn
    moved: null,     // where root motion has carried the controller's character
    t: 0,
    playing: false,
    speed: 1,
    loop: true,
    last: 0,
    pending: false,  // a controller tick in flight
    ctlDT: 0,
    set: {},         // parameter changes to send with the next tick
    reset: false,
    token: 0,        // bumps when the selection changes
  };

  function setPlaying(p) {
    st.playing = p;
    $('play').textContent = p ? 'pause' : 'play';
    if (st.mode) status(p ? 'playing' : 'paused');
  }
  function showTime() {
    if (st.mode === 'clip' && st.clip) {
      $('time').textContent = st.t.toFixed(3) + ' / ' + st.clip.duration.toFixed(3) + ' s';
      $('scrub').value = String(st.clip.duration > 0 ? st.t / st.clip.duration : 0);
    } else if (st.mode === 'controller') {
      $('time').textContent = st.ctlTime !== undefined ? st.ctlTime.toFixed(3) + ' s' : '';
    }
    body.dataset.time = st.t.toFixed(4);
  }

  function selectItem(list, el) {
    for (const li of document.querySelectorAll('.list li')) li.classList.remove('selected');
    if (el) el.classList.add('selected');
  }

  // clip playback: positions interpolated between the server's frames
  function clipPose(t) {
    const c = st.clip, n = c.paths.length * 3;
    let f = t * c.rate;
    if (!(f > 0)) f = 0;
    if (f > c.frames - 1) f = c.frames - 1;
    const f0 = Math.floor(f), f1 = Math.min(f0 + 1, c.frames - 1), a = f - f0;
    const p = c.positions, o0 = f0 * n, o1 = f1 * n;
    if (!st.pose || st.pose.length !== n) st.pose = new Float32Array(n);
    for (let i = 0; i < n; i++) st.pose[i] = p[o0 + i] * (1 - a) + p[o1 + i] * a;
    if (c.rot) {
      const nj = c.paths.length, r = c.rot, sc = c.scl;
      if (!st.rot || st.rot.length !== nj * 4) { st.rot = new Float32Array(nj * 4); st.scl = new Float32Array(nj * 3); }
      for (let j = 0; j < nj; j++) {
        const i0 = f0 * nj * 4 + j * 4, i1 = f1 * nj * 4 + j * 4;
        const sgn = r[i0] * r[i1] + r[i0 + 1] * r[i1 + 1] + r[i0 + 2] * r[i1 + 2] + r[i0 + 3] * r[i1 + 3] < 0 ? -1 : 1;
        let x = r[i0] * (1 - a) + sgn * r[i1] * a, y = r[i0 + 1] * (1 - a) + sgn * r[i1 + 1] * a;
        let z = r[i0 + 2] * (1 - a) + sgn * r[i1 + 2] * a, w = r[i0 + 3] * (1 - a) + sgn * r[i1 + 3] * a;
        const l = Math.hypot(x, y, z, w) || 1;
        st.rot[j * 4] = x / l; st.rot[j * 4 + 1] = y / l; st.rot[j * 4 + 2] = z / l; st.rot[j * 4 + 3] = w / l;
        for (let k = 0; k < 3; k++) st.scl[j * 3 + k] = sc[f0 * nj * 3 + j * 3 + k] * (1 - a) + sc[f1 * nj * 3 + j * 3 + k] * a;
      }
    } else {
      st.rot = st.scl = null;
    }
    st.mw = null;
    if (c.mw) {
      const nm = c.mw.length / c.frames;
      if (!st.mwBuf || st.mwBuf.length !== nm) st.mwBuf = new Float32Array(nm);
      for (let i = 0; i < nm; i++) st.mwBuf[i] = c.mw[f0 * nm + i] * (1 - a) + c.mw[f1 * nm + i] * a;
      st.mw = st.mwBuf;
    }
    return st.pose;
  }

  // loadClip plays clip id on opts.rig (default: the rig chosen in the
  // list, -1 the binding's choice).
  async function loadClip(id, opts) {
    opts = opts || {};
    const token = ++st.token;
    st.mode = null;
    setPlaying(false);
    status('loading', 'loading clip…');
    const c = st.scene.clips[id];
    const rig = opts.rig !== undefined ? Number(opts.rig) : Number($('rig').value);
    $('title').textContent = c ? c.name + (c.apart ? ' — ' + c.apart : '') : 'clip ' + id;
    $('on').textContent = '';
    $('params').hidden = true;
    $('events').hidden = true;
    $('layers').hidden = true;
    selectItem('clips', document.querySelector('#clips li[data-id="' + id + '"]'));
    let f;
    try {
      f = await getJSON('api/clip/' + id + '/frames?rate=30&rig=' + rig + ($('showmesh').checked ? '&mesh=1' : ''));
    } catch (e) {
      if (token === st.token) status('error', 'clip ' + (c ? c.name : id) + ': ' + e.message);
      return;
    }
    if (token !== st.token) return;
    f.positions = new Float32Array(f.positions);
    if (f.rotations) { f.rot = new Float32Array(f.rotations); f.scl = new Float32Array(f.scales); }
    f.mw = f.morph_weights ? new Float32Array(f.morph_weights) : null;
    delete f.morph_weights;
    delete f.rotations;
    delete f.scales;
    freeMeshes();
    st.meshes = prepareMeshes(f);
    st.clip = f;
    st.clipRig = rig;
    st.look = lookOf(f);
    st.moved = null;
    st.mode = 'clip';
    st.t = Math.max(0, Math.min(f.duration, opts.t || 0));
    st.loop = f.loop;
    $('loop').checked = f.loop;
    $('on').textContent = 'on ' + f.on + (f.from ? ' (made for ' + f.from + ': retargeted through muscles)' : f.humanoid ? ' (humanoid)' : '') + ', ' + f.paths.length + ' joints, ' +
      f.frames + ' frames at ' + (+f.rate.toFixed(2)) + ' Hz' + (f.nonfinite ? ', ' + f.nonfinite + ' non-finite values' : '') +
      (st.meshes.length ? ', ' + st.meshes.length + ' meshes' : '');
    $('on').title = (f.mesh_notes || []).join('\n');
    body.dataset.meshes = String(st.meshes.length);
    for (const id of ['play', 'scrub']) $(id).disabled = false;
    $('reset').disabled = true;
    fitCamera(f.box);
    body.dataset.clip = String(id);
    body.dataset.joints = String(f.paths.length);
    setPlaying(!!opts.autoplay);
    showTime();
  }

  function freeMeshes() {
    for (const m of st.meshes || []) {
      gl.deleteBuffer(m.ibuf);
      gl.deleteBuffer(m.vbuf);
      gl.deleteBuffer(m.nbuf);
      if (m.uvbuf) gl.deleteBuffer(m.uvbuf);
    }
    st.meshes = [];
  }

  // loadController runs controller id on opts.rig (default: the rig chosen
  // in the list, -1 the binding's choice).
  async function loadController(id, opts) {
    opts = opts || {};
    const token = ++st.token;
    const rig = opts.rig !== undefined ? Number(opts.rig) : Number($('rig').value);
    st.mode = null;
    freeMeshes();
    setPlaying(false);
    status('loading', 'starting controller…');
    const c = st.scene.controllers[id];
    $('title').textContent = c ? c.name + (c.apart ? ' — ' + c.apart : '') : 'controller ' + id;
    selectItem('controllers', document.querySelector('#controllers li[data-id="' + id + '"]'));
    let info;
    try {
      info = await getJSON('api/controller/' + id + '?rig=' + rig + ($('showmesh').checked ? '&mesh=1' : ''));
    } catch (e) {
      if (token === st.token) status('error', 'controller: ' + e.message);
      return;
    }
    if (token !== st.token) return;
    st.ctl = info;
    st.ctlRig = rig;
    st.look = info.parents.length ? lookOf(info) : null;
    st.pose = st.rot = st.scl = null;
    st.moved = null;
    st.meshes = prepareMeshes(info);
    body.dataset.meshes = String(st.meshes.length);
    st.set = {};
    st.reset = true;
    st.ctlDT = 0;
    st.mode = 'controller';
    $('on').textContent = info.paths.length ? 'on ' + info.on + ', ' + info.paths.length + ' joints' : 'no skeleton: states only';
    if (info.notes.length) $('on').textContent += ' — ' + info.notes.join('; ');
    $('scrub').disabled = true;
    $('play').disabled = false;
    $('reset').disabled = false;
    buildParams(info.parameters);
    $('layers').hidden = false;
    $('layertable').textContent = '';
    st.layerRows = null;
    st.layerWeights = null;
    $('eventlist').textContent = '';
    $('events').hidden = true;
    body.dataset.controller = String(id);
    fitCamera(info.box);
    setPlaying(!opts || opts.autoplay !== false);
  }

  function buildParams(params) {
    const list = $('paramlist');
    list.textContent = '';
    $('params').hidden = params.length === 0;
    st.paramInputs = [];
    params.forEach((p, i) => {
      const row = document.createElement('div');
      row.className = 'param';
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = p.name;
      name.title = p.name + ' (' + p.type + ')';
      row.appendChild(name);
      let input = null;
      if (p.type === 'trigger') {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = 'trigger';
        b.addEventListener('click', () => { st.set[p.name] = true; });
        row.appendChild(b);
        input = b;
      } else if (p.type === 'bool') {
        input = document.createElement('input');
        input.type = 'checkbox';
        input.checked = p.default !== 0;
        input.addEventListener('change', () => { st.set[p.name] = input.checked; });
        row.appendChild(input);
      } else {
        const range = document.createElement('input');
        range.type = 'range';
        const span = Math.max(1, Math.abs(p.default) * 2);
        range.min = String(-span * (p.type === 'int' ? 5 : 2));
        range.max = String(span * (p.type === 'int' ? 5 : 2));
        range.step = p.type === 'int' ? '1' : '0.01';
        range.value = String(p.default);
        input = document.createElement('input');
        input.type = 'number';
        input.step = p.type === 'int' ? '1' : '0.1';
        input.value = String(p.default);
        const send = (v) => {
          let x = Number(v);
          if (!isFinite(x)) return;
          if (p.type === 'int') x = Math.round(x);
          st.set[p.name] = x;
        };
        range.addEventListener('input', () => { input.value = range.value; send(range.value); });
        input.addEventListener('change', () => { range.value = input.value; send(input.value); });
        row.appendChild(range);
        row.appendChild(input);
        input.range = range;
      }
      st.paramInputs[i] = { p, input };
      list.appendChild(row);
    });
  }

  // buildLayers makes one row per layer: name, state, and a weight slider
  // (the base layer always plays at 1).
  function buildLayers(names) {
    const table = $('layertable');
    table.textContent = '';
    st.layerRows = names.map((name, i) => {
      const tr = document.createElement('tr');
      const n = document.createElement('td'), s = document.createElement('td'), w = document.createElement('td');
      n.textContent = name;
      const range = document.createElement('input');
      range.type = 'range';
      range.min = '0';
      range.max = '1';
      range.step = '0.01';
      range.value = '1';
      range.disabled = i === 0;
      range.title = 'layer weight';
      range.addEventListener('input', () => {
        st.layerWeights = st.layerWeights || {};
        st.layerWeights[i] = Number(range.value);
      });
      w.appendChild(range);
      tr.append(n, s, w);
      table.appendChild(tr);
      return { state: s, weight: range };
    });
  }

  function showEvents(evs) {
    if (!evs || !evs.length) return;
    const list = $('eventlist');
    $('events').hidden = false;
    for (const e of evs) {
      const li = document.createElement('li');
      li.textContent = (st.ctlTime || 0).toFixed(2) + ' s ' + e.function + '(' + (e.string || e.float || e.int || '') + ') ' +
        e.clip + ' @' + e.time.toFixed(2) + ' w ' + e.weight.toFixed(2);
      list.appendChild(li);
    }
    while (list.children.length > 50) list.removeChild(list.firstChild);
    list.scrollTop = list.scrollHeight;
  }

  function showControllerState(r) {
    st.ctlTime = r.time;
    if (!st.layerRows || st.layerRows.length !== r.layers.length) buildLayers(r.layers.map((l) => l.name));
    r.layers.forEach((l, i) => {
      const row = st.layerRows[i];
      row.state.textContent = l.state + ' ' + l.normalized_time.toFixed(2) + (l.next ? ' → ' + l.next + ' ' + Math.round(l.transition * 100) + '%' : '');
      if (document.activeElement !== row.weight && !(st.layerWeights && i in st.layerWeights)) row.weight.value = String(l.weight);
    });
    showEvents(r.events);
    (st.paramInputs || []).forEach((pi, i) => {
      const v = r.params[i];
      if (v === undefined || document.activeElement === pi.input) return;
      if (pi.p.type === 'bool') pi.input.checked = v !== 0;
      else if (pi.p.type === 'trigger') pi.input.classList.toggle('armed', v !== 0);
      else if (!(pi.p.name in st.set)) { pi.input.value = String(+v.toFixed(4)); pi.input.range.value = String(v); }
    });
    body.dataset.states = r.layers.map((l) => l.state).join('|');
    body.dataset.carried = r.carried.t.map((x) => x.toFixed(4)).join(',');
  }

  async function tickController(token) {
    st.pending = true;
    const dt = Math.min(st.ctlDT, 1);
    st.ctlDT -= dt;
    const req = { dt: dt, set: st.set, reset: st.reset, mesh: st.meshes.length > 0, layer_weights: st.layerWeights || {} };
    st.set = {};
    st.layerWeights = null;
    st.reset = false;
    try {
      const r = await postJSON('api/controller/' + st.ctl.id + '/tick?rig=' + st.ctlRig, req);
      if (token !== st.token) return;
      if (r.positions.length) {
        st.pose = new Float32Array(r.positions);
        if (r.rotations) { st.rot = new Float32Array(r.rotations); st.scl = new Float32Array(r.scales); }
      }
      // A game applying root motion moves the character's GameObject:
      // so does the page (the pose is held in place; carried places it),
      // and the camera follows.
      st.moved = r.carried;
      showControllerState(r);
      showTime();
    } catch (e) {
      if (token === st.token) {
        setPlaying(false);
        status('error', 'controller: ' + e.message);
      }
    } finally {
      st.pending = false;
    }
  }

  function frame(now) {
    const dt = st.last ? Math.min((now - st.last) / 1000, 0.25) : 0;
    st.last = now;
    try {
      if (st.mode === 'clip') {
        const d = st.clip.duration;
        if (st.playing) {
          st.t += dt * st.speed;
          if (st.t > d) {
            if ($('loop').checked && d > 0) st.t %= d;
            else { st.t = d; setPlaying(false); }
          }
        }
        draw(clipPose(st.t), st.look, st.meshes, null);
        showTime();
      } else if (st.mode === 'controller') {
        if (st.playing) st.ctlDT += dt * st.speed;
        if (!st.pending && (st.ctlDT > 0 || st.reset || Object.keys(st.set).length || st.layerWeights || !st.pose)) {
          st.pending = true;
          tickController(st.token);
        }
        const model = rootMatrix(st.moved);
        follow(model, dt);
        draw(st.pose, st.look, st.meshes, model);
      } else {
        draw(null, null);
      }
    } catch (e) {
      report('frame: ' + e.message);
      return; // stop the loop rather than flood the console
    }
    requestAnimationFrame(frame);
  }

  // ---- controls ----
  $('play').addEventListener('click', () => {
    if (st.mode === 'clip' && !st.playing && st.t >= st.clip.duration && !$('loop').checked) st.t = 0;
    setPlaying(!st.playing);
  });
  $('reset').addEventListener('click', () => { st.reset = true; st.ctlDT = 0; });
  $('scrub').addEventListener('input', () => {
    if (st.mode === 'clip') st.t = Number($('scrub').value) * st.clip.duration;
  });
  $('speed').addEventListener('change', () => { st.speed = Number($('speed').value) || 1; });
  $('showmesh').addEventListener('change', () => {
    if ($('showmesh').checked && st.mode === 'clip' && st.clip && !st.clip.rot) loadClip(st.clip.id, { autoplay: st.playing, t: st.t, rig: st.clipRig });
    if ($('showmesh').checked && st.mode === 'controller' && !st.meshes.length) loadController(st.ctl.id, { autoplay: st.playing, rig: st.ctlRig });
  });
  $('rig').addEventListener('change', () => {
    if (st.mode === 'clip' && st.clip) loadClip(st.clip.id, { autoplay: st.playing, t: st.t });
  });
  document.addEventListener('keydown', (e) => {
    if (e.code === 'Space' && e.target === document.body && st.mode) {
      e.preventDefault();
      $('play').click();
    }
  });

  let severalInputs = false;
  // shortRef shortens a reference ("FILE#PATHID") for a list: a long file
  // name keeps its start and end.
  function shortRef(ref) {
    const i = ref.lastIndexOf('#');
    let file = i >= 0 ? ref.slice(0, i) : ref;
    if (file.length > 14) file = file.slice(0, 8) + '…' + file.slice(-4);
    return i >= 0 ? file + ref.slice(i) : file;
  }
  // fillList lists objects: each by its name and, on a line of its own,
  // what tells it apart from others of its name: its input when theirs
  // differ, its reference when theirs do (the server's label says which
  // are duplicates); in grey on the same line its input when the objects
  // come from several.
  function fillList(ul, items, onclick) {
    const inputs = new Set(items.map((x) => x.input)).size > 1 || severalInputs;
    const byName = new Map();
    for (const it of items) {
      if (!byName.has(it.name)) byName.set(it.name, []);
      byName.get(it.name).push(it);
    }
    for (const it of items) {
      const li = document.createElement('li');
      li.dataset.id = String(it.id);
      const name = document.createElement('span');
      name.className = 'name';
      name.textContent = it.name || '(unnamed)';
      li.append(name);
      const same = byName.get(it.name);
      if (same.length > 1 || it.label !== it.name) {
        const parts = [];
        if (new Set(same.map((x) => x.input)).size > 1) parts.push(it.input);
        if (new Set(same.map((x) => x.ref)).size > 1 || !parts.length) parts.push(shortRef(it.ref));
        const sub = document.createElement('span');
        sub.className = 'sub';
        sub.textContent = it.apart = parts.join(' · ');
        li.append(sub);
      } else if (inputs) {
        const f = document.createElement('span');
        f.className = 'file';
        f.textContent = it.input;
        li.append(f);
      }
      li.title = it.label + ' — ' + it.input + ' ' + it.ref;
      li.addEventListener('click', () => onclick(it));
      ul.appendChild(li);
    }
  }

  async function start() {
    if (query.get('ui') === '0') body.classList.add('noui');
    if (query.get('mesh') === '0') $('showmesh').checked = false;
    if (query.get('bones') === '0') $('showbones').checked = false;
    try {
      initGL();
    } catch (e) {
      report(e.message);
    }
    const speed = Number(query.get('speed'));
    if (speed > 0) {
      st.speed = speed;
      $('speed').value = String(speed);
      if ($('speed').value !== String(speed)) {
        const o = document.createElement('option');
        o.value = String(speed);
        o.textContent = speed + '×';
        $('speed').appendChild(o);
        $('speed').value = String(speed);
      }
    }
    let scene;
    try {
      scene = await getJSON('api/scene');
    } catch (e) {
      status('error', 'scene: ' + e.message);
      report('scene: ' + e.message);
      return;
    }
    st.scene = scene;
    $('files').textContent = scene.files.join(', ');
    const severalRigInputs = new Set(scene.rigs.map((r) => r.input)).size > 1;
    for (const r of scene.rigs) {
      const o = document.createElement('option');
      o.value = String(r.id);
      o.textContent = r.label + (severalRigInputs ? ' in ' + r.input : '') + (r.error ? ' (does not load)' : ' (' + r.joints + ' joints)');
      o.title = r.error || r.ref;
      $('rig').appendChild(o);
    }
    severalInputs = scene.files.length > 1;
    fillList($('clips'), scene.clips, (c) => loadClip(c.id, { autoplay: true }));
    fillList($('controllers'), scene.controllers, (c) => loadController(c.id, { autoplay: true }));
    if (!scene.clips.length) $('clips').textContent = 'none';
    if (!scene.controllers.length) $('controllers').textContent = 'none';
    body.dataset.clips = String(scene.clips.length);
    body.dataset.controllers = String(scene.controllers.length);
    status('ready', scene.clips.length + ' clips, ' + scene.controllers.length + ' controllers, ' + scene.rigs.length + ' characters');
    requestAnimationFrame(frame);

    // What to show: the clip or controller the address names, else what
    // the server chose (the first character with its first clip, or its
    // controller), playing.
    const rig = query.get('rig');
    if (rig !== null && scene.rigs[Number(rig)]) $('rig').value = rig;
    const autoplay = query.get('autoplay') === '1';
    const clip = query.get('clip'), ctl = query.get('controller'), s = scene.start;
    if (clip !== null && scene.clips[Number(clip)]) {
      await loadClip(Number(clip), { autoplay, t: Number(query.get('t')) || 0 });
    } else if (ctl !== null && scene.controllers[Number(ctl)]) {
      await loadController(Number(ctl), { autoplay });
    } else if (s && s.clip >= 0) {
      await loadClip(s.clip, { autoplay: true, rig: s.rig });
    } else if (s && s.controller >= 0) {
      await loadController(s.controller, { autoplay: true, rig: s.rig });
    }
  }
  start();
})();
