# Imports glTF files into Blender (headless) and reports what Blender made
# of them, for blender_test.go. Usage:
#   blender -b --factory-startup --python blender_check.py -- JOB.json OUT.json
# JOB.json: {"files": [{"path": P, "animations": [{"name": N, "times": [T...]}]}]}
# OUT.json: per file, the counts of armatures, bones, meshes, shape keys and
# actions, and for each animation asked for, each bone's head in world space
# (glTF's frame: y up) and each mesh's shape key values at each time, with
# that animation's actions active.
import json
import sys

import numpy

# Blender 3.4's glTF importer still calls numpy.bool, which numpy 1.24
# removed.
numpy.bool = bool

import bpy  # noqa: E402


def to_gltf(v):
    # The importer converts glTF's (x, y, z) (y up) to Blender's (x, -z, y).
    return [v.x, v.z, -v.y]


def set_animation(name):
    # The importer stashes each animation's actions in NLA tracks named for
    # it; make them the active actions (as its "restore" does).
    for obj in bpy.data.objects:
        for owner in (obj, getattr(obj.data, "shape_keys", None)):
            ad = getattr(owner, "animation_data", None)
            if ad is None:
                continue
            ad.action = None
            for track in ad.nla_tracks:
                if track.name == name and track.strips:
                    ad.action = track.strips[0].action


def snapshot():
    # The pose bones' own values, as the importer sets them (the glTF nodes'
    # transforms) before it makes the animations: Blender keeps a
    # property's last value when the active action does not drive it, while
    # glTF gives it the node's transform, so each pose starts from these.
    return {(a.name, pb.name): (pb.location.copy(), pb.rotation_quaternion.copy(), pb.scale.copy())
            for a in bpy.data.objects if a.type == "ARMATURE" for pb in a.pose.bones}


rest_values = {}


def snapshot_before_animations():
    from io_scene_gltf2.blender.imp.gltf2_blender_scene import BlenderScene
    create = BlenderScene.create_animations

    def wrapped(gltf):
        rest_values.clear()
        rest_values.update(snapshot())
        create(gltf)

    BlenderScene.create_animations = staticmethod(wrapped)


def restore(arms, snap):
    for a in arms:
        for pb in a.pose.bones:
            pb.location, pb.rotation_quaternion, pb.scale = snap[(a.name, pb.name)]


def heads(arms):
    dg = bpy.context.evaluated_depsgraph_get()
    out = {}
    for a in arms:
        ev = a.evaluated_get(dg)
        mw = ev.matrix_world
        for pb in ev.pose.bones:
            out[pb.name] = to_gltf(mw @ pb.head)
    return out


def weights(meshes):
    # Each mesh's shape key values (its morph weights), basis left out.
    dg = bpy.context.evaluated_depsgraph_get()
    out = {}
    for o in meshes:
        keys = o.evaluated_get(dg).data.shape_keys
        if keys is not None:
            out[o.name] = [kb.value for kb in keys.key_blocks[1:]]
    return out


def check(job):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    bpy.ops.import_scene.gltf(filepath=job["path"])
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    objs = list(bpy.data.objects)
    arms = [o for o in objs if o.type == "ARMATURE"]
    meshes = [o for o in objs if o.type == "MESH"]
    out = {
        "path": job["path"],
        "armatures": len(arms),
        "bones": sum(len(a.data.bones) for a in arms),
        "meshes": len(meshes),
        "shapeKeys": sum(len(o.data.shape_keys.key_blocks) for o in meshes if o.data.shape_keys),
        "actions": len(bpy.data.actions),
        "empties": len([o for o in objs if o.type == "EMPTY"]),
        "boneNames": [b.name for a in arms for b in a.data.bones],
        "objectNames": [o.name for o in objs],
        "actionNames": [a.name for a in bpy.data.actions],
        "animations": [],
    }
    snap = dict(rest_values)
    set_animation(None)
    restore(arms, snap)
    bpy.context.view_layer.update()
    out["rest"] = heads(arms)
    for anim in job.get("animations") or []:
        set_animation(anim["name"])
        poses, morphs = [], []
        for t in anim["times"]:
            restore(arms, snap)
            f = t * fps
            scene.frame_set(int(f // 1), subframe=f - f // 1)
            poses.append(heads(arms))
            morphs.append(weights(meshes))
        out["animations"].append({"name": anim["name"], "poses": poses, "weights": morphs})
    return out


def main():
    snapshot_before_animations()
    args = sys.argv[sys.argv.index("--") + 1:]
    with open(args[0]) as f:
        jobs = json.load(f)
    results = [check(job) for job in jobs["files"]]
    with open(args[1], "w") as f:
        json.dump({"version": bpy.app.version_string, "files": results}, f)


main()
