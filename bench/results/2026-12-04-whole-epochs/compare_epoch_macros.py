import random
from pyspark.sql import SparkSession
s=SparkSession.builder.master("local[2]").config("spark.sql.session.timeZone","UTC").getOrCreate()
random.seed(7)
vals=['1700000000','1700000000123','1700000000123456','1700000000123456789',' 1700000000 ','soon',None,'-1','0','1.5','1700000000123.5','-62135596800','-62135596801','253402300799','253402300800',
 '253402300799999','253402300800000','99999999999','100000000000','-99999999999','-100000000000','99999999999999','100000000000000','99999999999999999','100000000000000000',
 '9223372036854775807','-9223372036854775808','9223372036854775808','1e12','+5','007','','  ','1605339932000','-62135596800000000','253402300799999999','253402300800000000','-0']
for _ in range(3000):
    k=random.choice([1,5,10,11,12,13,14,15,16,17,18,19,20])
    v=str(random.randint(0,10**k)); 
    if random.random()<0.3: v='-'+v
    if random.random()<0.1: v=v+'.'+str(random.randint(0,999))
    vals.append(v)
s.createDataFrame([(v,) for v in vals],'v string').createOrReplaceTempView('vals')
old=s.sql(open('/tmp/exp/q_old.sql').read()); new=s.sql(open('/tmp/exp/q_main.sql').read())
print('rows',old.count(), 'old-new', old.exceptAll(new).count(), 'new-old', new.exceptAll(old).count())
old.exceptAll(new).show(10,False)
