package unityfs_test
import ("testing";"bytes";"io";"math/rand";"time";"os";"github.com/mecanim/mecanim/unity/unityfs")
func TestScratchMutate(t *testing.T){
 seeds := [][]byte{}
 for _, p := range []string{"jotunn/kitbash","lethal-emotes/customemotespackage2","plateup-emotes/customemotespackage"} { d,_:=os.ReadFile("/work/shared/corpus/"+p); seeds=append(seeds,d)}
 seeds = append(seeds, buildBundle(t, sampleSpec(8,false,true,2,2,0)), buildBundle(t, sampleSpec(6,false,false,1,1)))
 rng := rand.New(rand.NewSource(1))
 deadline := time.Now().Add(60*time.Second)
 for k:=0; time.Now().Before(deadline); k++ {
  s := seeds[rng.Intn(len(seeds))]
  d := append([]byte(nil), s...)
  for m:=0; m<1+rng.Intn(4); m++ {
   pos := rng.Intn(min(len(d), 200+rng.Intn(len(d))))
   switch rng.Intn(3) { case 0: d[pos]=byte(rng.Intn(256)); case 1: d[pos]^=byte(1<<rng.Intn(8)); case 2: if pos+4<=len(d){d[pos]=0xff;d[pos+1]=byte(rng.Intn(256))} }
  }
  st := time.Now()
  a, err := unityfs.OpenWith(bytes.NewReader(d), int64(len(d)), unityfs.Options{CacheBlocks:2, CacheBytes:8<<20})
  var total int64
  if err == nil { for i := range a.Nodes { n,_:=io.Copy(io.Discard, a.NodeReader(i)); total+=n } }
  if el := time.Since(st); el > 300*time.Millisecond {
   t.Logf("slow %v: seed len %d, err=%v, nodes=%d total=%d stats=%+v", el, len(d), err, len(a.Nodes), total, a.Stats())
   if a != nil { for _, b := range a.Blocks[:min(5,len(a.Blocks))] { t.Logf("  block %+v", b) }; for _, n := range a.Nodes[:min(5,len(a.Nodes))] { t.Logf("  node %+v", n) } }
   os.WriteFile("/tmp/slow.bin", d, 0644)
   return
  }
 }
}
