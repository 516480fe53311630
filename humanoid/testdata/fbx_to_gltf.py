# Converts an FBX file to a binary glTF the way a user does it with
# Blender: import with the default settings, export every object's
# action as one animation.
#
#   blender -b --factory-startup --python fbx_to_gltf.py -- IN.fbx OUT.glb
import sys

import bpy

src, dst = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.fbx(filepath=src)
# One animation of the whole scene, not one per object's action.
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLB", export_animations=True,
                          export_nla_strips=False)
