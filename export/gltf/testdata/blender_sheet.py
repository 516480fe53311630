# Renders an imported glTF animation at three times with Workbench and
# tiles the frames into one PNG (a contact sheet).
# blender -b --factory-startup --python render.py -- FILE.glb ANIMATION OUT.png T1 T2 T3
import sys

import numpy

numpy.bool = bool

import bpy  # noqa: E402
from mathutils import Vector  # noqa: E402

args = sys.argv[sys.argv.index("--") + 1:]
path, anim, out = args[0], args[1], args[2]
times = [float(x) for x in args[3:6]]

bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base

for obj in bpy.data.objects:
    for owner in (obj, getattr(obj.data, "shape_keys", None)):
        ad = getattr(owner, "animation_data", None)
        if ad is None:
            continue
        ad.action = None
        for track in ad.nla_tracks:
            if track.name == anim and track.strips:
                ad.action = track.strips[0].action

meshes = [o for o in bpy.data.objects if o.type == "MESH"]


def set_time(t):
    f = t * fps
    scene.frame_set(int(f // 1), subframe=f - f // 1)


# Frame the meshes over the three times (deformed vertices, world space).
lo = Vector((1e9, 1e9, 1e9))
hi = -lo
for t in times:
    set_time(t)
    dg = bpy.context.evaluated_depsgraph_get()
    for o in meshes:
        ev = o.evaluated_get(dg)
        m = ev.to_mesh()
        mw = ev.matrix_world
        for v in m.vertices:
            p = mw @ v.co
            lo = Vector(map(min, lo, p))
            hi = Vector(map(max, hi, p))
        ev.to_mesh_clear()
center = (lo + hi) / 2
size = hi - lo

cam_data = bpy.data.cameras.new("cam")
cam_data.type = "ORTHO"
aspect = 360 / 480
cam_data.ortho_scale = max(size.z, size.x / aspect) * 1.1
cam = bpy.data.objects.new("cam", cam_data)
scene.collection.objects.link(cam)
# The character faces Unity's +z, which is Blender's -y: look at its front
# from a little to its right and above.
cam.location = center + Vector((0.35 * size.z, -3 * max(size.z, 1), 0.15 * size.z))
cam.rotation_euler = (center - cam.location).to_track_quat("-Z", "Y").to_euler()
scene.camera = cam

scene.render.engine = "BLENDER_WORKBENCH"
scene.display.shading.light = "STUDIO"
scene.display.shading.color_type = "MATERIAL"
scene.display.shading.show_shadows = True
scene.display.shading.show_cavity = True
scene.render.film_transparent = False
scene.render.resolution_x = 360
scene.render.resolution_y = 480
scene.render.resolution_percentage = 100
scene.render.image_settings.file_format = "PNG"

tiles = []
for i, t in enumerate(times):
    set_time(t)
    frame = "%s.%d.png" % (out, i)
    scene.render.filepath = frame
    bpy.ops.render.render(write_still=True)
    img = bpy.data.images.load(frame)
    w, h = img.size
    px = numpy.array(img.pixels[:], dtype=numpy.float32).reshape(h, w, 4)
    tiles.append(px)
    tiles.append(numpy.ones((h, 6, 4), dtype=numpy.float32))
sheet = numpy.concatenate(tiles[:-1], axis=1)
h, w = sheet.shape[:2]
res = bpy.data.images.new("sheet", w, h, alpha=True)
res.pixels = sheet.ravel()
res.filepath_raw = out
res.file_format = "PNG"
res.save()
print("SHEET", out, w, h, "times", times, "bbox", tuple(size))
