package assets_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/model"
	"github.com/mecanim/mecanim/unity/assets"
)

// Open a Unity file whatever its container (here a UnityFS bundle) and list
// its objects: path id, class and name. This is what `mecanim ls` prints.
func Example() {
	c, err := assets.Open("../../examples/hello.bundle", assets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println(c.Kind, len(c.Files), "serialized file(s)")
	for _, f := range c.Files {
		fmt.Println(f.Name, f.Version)
		for i := range f.Objects {
			o := &f.Objects[i]
			name, err := f.ObjectName(o)
			if err != nil {
				name = "(" + err.Error() + ")"
			}
			fmt.Printf("%4d %-14s %q\n", o.PathID, f.ClassName(o), name)
		}
	}
	// Output:
	// UnityFS 1 serialized file(s)
	// CAB-hello0000000000000000000000000 2022.3.9f1
	//  100 GameObject     "Hello"
	//  200 Transform      ""
	//  101 GameObject     "Armature"
	//  201 Transform      ""
	//  102 GameObject     "Hips"
	//  202 Transform      ""
	//  103 GameObject     "Spine"
	//  203 Transform      ""
	//  104 GameObject     "Head"
	//  204 Transform      ""
	//  105 GameObject     "LeftArm"
	//  205 Transform      ""
	//  106 GameObject     "RightArm"
	//  206 Transform      ""
	//  300 Animator       ""
	//  400 AnimationClip  "Wave"
}

// Find an object by name and class, then decode it into a tree of named
// values with the file's own type tree (or, for stripped game files, the
// built-in layout of the file's Unity version).
func ExampleFile_Find() {
	c, err := assets.Open("../../examples/hello.bundle", assets.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	f := c.Files[0]
	for _, o := range f.Find("Wave", model.ClassAnimationClip) {
		v, err := f.Decode(o)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(v.Field("m_Name").Str())
		fmt.Println("sample rate:", v.Field("m_SampleRate").Float())
		fmt.Println("stop time:", v.Path("m_MuscleClip", "m_StopTime").Float())
		fmt.Println("events:", v.Field("m_Events").Len())
	}
	// Output:
	// Wave
	// sample rate: 30
	// stop time: 2
	// events: 1
}
