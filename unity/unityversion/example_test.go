package unityversion_test

import (
	"fmt"
	"log"

	"github.com/mecanim/mecanim/unity/unityversion"
)

// Parse two versions and order them as Unity releases them: a China build
// sorts right after its base final release.
func ExampleCompare() {
	a, err := unityversion.Parse("2019.4.26f1c1")
	if err != nil {
		log.Fatal(err)
	}
	b := unityversion.MustParse("2019.4.26f2")
	fmt.Println(a, unityversion.Compare(a, b))
	// Output: 2019.4.26f1c1 -1
}
