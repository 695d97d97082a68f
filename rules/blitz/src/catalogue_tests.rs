use super::*;

const HEAD: &str = "[meta]\ngame = \"blitz\"\ntitle = \"t\"\ndemo = false\n\n";

#[test]
fn probe() {
    let cases = [
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"unit\"\nkind = \"vehicle\"\ndefence = 2\nsupply = 1\nrange = [[0,1]]\n",
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"unit\"\nkind = \"vehicle\"\nattack = \"high\"\ndefence = 2\nsupply = 1\nrange = [[0,1]]\n",
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"unit\"\nkind = \"vehicle\"\nattack = 3\ndefence = 2\nsupply = 1\nrange = [[0,1]]\nkeywords = [\"flying\"]\n",
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"unit\"\nkind = \"vehicle\"\nattack = 3\ndefence = 2\nsupply = 1\nrange = [[0,0]]\n",
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"facility\"\ndefence = 2\n[card.effect]\nkind = \"bunker\"\nbonus = \"x\"\n",
        "[[card]]\nid = \"a\"\nfaction = \"us\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"tank\"\n",
        "[[card]]\nid = \"a\"\nfaction = \"usa\"\nname_zh = \"x\"\nname_en = \"x\"\ntype = \"frontline\"\n",
    ];
    for c in cases {
        let t = format!("{HEAD}{c}");
        println!("{:?}", Catalogue::from_toml("f.toml", &t).err());
    }
}
