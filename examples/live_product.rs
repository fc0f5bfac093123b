// Scratch: print the liveness product of a family (not committed).
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let m = nfold::lang::load_file(&a[1]).unwrap();
    let fair = a.get(2).is_some_and(|x| x == "fair");
    let p = nfold::live::Product::new(&m, 0, fair).unwrap();
    print!("{}", p.text());
}
